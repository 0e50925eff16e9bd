package oracle

import (
	"database/sql"
	"fmt"
	"strconv"

	"github.com/target-oracle/target-oracle/internal/table"
)

// nativeFromCatalog maps RAW (DATA_LENGTH bytes), BLOB and VECTOR
// catalog columns. ALL_TAB_COLS does not show a VECTOR's dimension and
// format, so it maps to a VECTOR of unknown shape, which a vector
// property's type joins without a change (table.Join) [verify on a real
// DB: which view tells the shape].
func nativeFromCatalog(dataType string, length sql.NullString) (table.Type, error) {
	switch dataType {
	case "RAW":
		n, err := strconv.Atoi(length.String)
		if err != nil || n < 1 {
			return table.Type{}, fmt.Errorf("RAW data length %q", length.String)
		}
		return table.Type{Kind: table.KindRaw, Length: n}, nil
	case "BLOB":
		return table.Type{Kind: table.KindBlob}, nil
	}
	return table.Type{Kind: table.KindVector}, nil
}
