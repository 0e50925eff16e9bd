//go:build !unix

package private

// oNoFollow is zero where the platform has no O_NOFOLLOW; the Lstat check
// in OpenFile still refuses a symlink found before the open.
const oNoFollow = 0
