// Package oravalue models Oracle's value rules: what the server's SQL
// conversions (TO_NUMBER, TO_BOOLEAN, TO_DATE, TO_TIMESTAMP[_TZ], JSON,
// TO_VECTOR) accept, whether a value fits its column (lengths, precision
// and scale, fractional seconds, check constraints, vector dimensions,
// NOT NULL), and which ORA error the server raises when it does not.
//
// Both models of Oracle use it, so that they cannot disagree: the embedded
// engine (internal/memory) applies Column.Assign to each stored value, and
// the fake Oracle (internal/oracle/fake) applies the conversion functions
// to the bind text its SQL interpreter receives and then Column.Check to
// the result. The loader validates values before either engine sees them;
// these rules are the server's, and catch the loader's mistakes (a column
// it did not widen, a value it did not canonicalise).
//
// The model is strict where Oracle would silently round (a third decimal
// into NUMBER(10,2), a seventh fractional digit into TIMESTAMP(6)) and
// where Oracle's format matching is lenient (only the exact formats the
// Oracle engine binds parse). Codes follow Oracle's error documentation;
// verified on Oracle: not yet.
//
// It imports nothing of the loader's, so that the engines and the SQL
// layer can use it without the Singer reader or the JSON Schema library.
package oravalue

import "fmt"

// Error is a server error of one value: an ORA code and Oracle's message
// for it.
type Error struct {
	Code int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("ORA-%05d: %s", e.Code, e.Msg) }

func errorf(code int, format string, a ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, a...)}
}

// rowLevel are the errors of one row's values (SPEC §6.3: decided by the
// ORA code, never by how many rows fail): with on_database_error reject
// the row is refused and the rest of its batch commits.
var rowLevel = map[int]bool{
	1:     true, // unique constraint violated
	1400:  true, // cannot insert NULL
	1407:  true, // cannot update to NULL
	1426:  true, // numeric overflow
	1438:  true, // value larger than specified precision allowed for this column
	1722:  true, // invalid number
	1830:  true, // date format picture ends before converting entire input string
	1839:  true, // date not valid for month specified
	1841:  true, // (full) year must be between -4713 and +9999, and not be 0
	1843:  true, // not a valid month
	1847:  true, // day of month must be between 1 and last day of month
	1850:  true, // hour must be between 0 and 23
	1851:  true, // minutes must be between 0 and 59
	1852:  true, // seconds must be between 0 and 59
	1861:  true, // literal does not match format string
	2290:  true, // check constraint violated (IS JSON, 0/1 checks)
	2291:  true, // integrity constraint violated - parent key not found
	2292:  true, // integrity constraint violated - child record found
	12899: true, // value too large for column
	40441: true, // JSON syntax error
	51803: true, // vector dimension count must match the column definition
	51804: true, // invalid syntax for VECTOR value
	51805: true, // vector dimension value could not be converted to a number
	51806: true, // vector dimension value outside the range of the dimension format
	61800: true, // invalid boolean value
}

// RowLevel reports whether an ORA code is an error of one row's values
// rather than of the statement.
func RowLevel(code int) bool { return rowLevel[code] }

// GeneratedAlways is the error of any value bound to a GENERATED ALWAYS
// identity column.
func GeneratedAlways(column string) *Error {
	return errorf(32795, "cannot insert into a generated always identity column %q", column)
}

// Virtual is the error of any value bound to a virtual column.
func Virtual(column string) *Error {
	return errorf(54013, "INSERT operation disallowed on virtual columns: %q", column)
}

// NoPartition is the error of a row whose interval partition key is NULL:
// it maps to no partition.
func NoPartition(column string) *Error {
	return errorf(14400, "inserted partition key does not map to any partition (%q is NULL)", column)
}

// PartitionMove is the error of an update that would move a row to
// another partition of a table without ROW MOVEMENT.
func PartitionMove() *Error {
	return errorf(14402, "updating partition key column would cause a partition change")
}

// MaxPartitions is the most partitions a table has (ORA-14300 past it).
const MaxPartitions = 1048575

// BeyondPartitions reports a stored date-time value ("2006-01-02…", UTC)
// whose interval partition would be past MaxPartitions (P0, then one per
// interval from 2000-01-01): from 4870-11-24 by day. Monthly and yearly
// partitions of years up to 9999 stay within it.
func BeyondPartitions(interval, v string) bool {
	return (interval == "day" || interval == "DAY") && v >= "4870-11-24"
}

// PartitionOf is the interval partition a stored date-time value
// ("2006-01-02…", UTC) falls in: P0 below 2000-01-01 (the table's first
// partition's bound), then one partition per interval (day, month or
// year, in either case).
func PartitionOf(interval, v string) string {
	if v < "2000-01-01" {
		return "P0"
	}
	n := 7
	switch interval {
	case "day", "DAY":
		n = 10
	case "year", "YEAR":
		n = 4
	}
	if len(v) < n {
		return v
	}
	return v[:n]
}
