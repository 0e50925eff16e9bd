package schema

import (
	"encoding/json"
	"fmt"
)

// InvalidNumber is the message for number text that Oracle NUMBER cannot
// hold exactly, err being value.CheckNumber's verdict on it: the same
// words whether the validator (validate_records) or the conversion into a
// native JSON value finds it, e.g. `1e200 is not a valid number:
// magnitude 1e126 or more, less expected`.
func InvalidNumber(text string, err error) string {
	return fmt.Sprintf("%s is not a valid number: %s", display(json.Number(text)), reason(err))
}
