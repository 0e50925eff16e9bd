package singer

// LineBuffered reports whether a whole line is read ahead and not yet
// returned as a message. When it is not, the next call to Next may block on
// the input (a quiet tap, or one that paused in the middle of a line): the
// pipeline hands over what it has before that, so that no message waits for
// input that may not come.
func (r *Reader) LineBuffered() bool { return r.lr.buffered() }
