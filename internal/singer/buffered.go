package singer

// LineBuffered reports whether a whole line is read ahead and not yet
// returned as a message. When it is not, the next call to Next may block on
// the input (a quiet tap, or one that paused in the middle of a line): the
// pipeline hands over what it has before that, so that no message waits for
// input that may not come.
func (r *Reader) LineBuffered() bool { return r.lr.buffered() }

// LineOwned reports whether the bytes of the message Next returned last
// (its raw parts) belong to the caller: a line over 16 MiB is read into a
// buffer of its own that the reader never reuses, so the caller may keep
// it instead of copying it (a copy of a 127 MiB line would be a third
// copy alive at once, beside the line and the row built from it).
func (r *Reader) LineOwned() bool { return r.lr.owned }
