package singer

import "github.com/target-oracle/target-oracle/internal/inputerr"

// InputError is inputerr.Error under its old name, kept only until the
// mechanical rename that moves every use to inputerr.Error.
type InputError = inputerr.Error
