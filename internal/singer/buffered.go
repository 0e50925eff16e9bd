package singer

// Buffered reports how many input bytes are read ahead and not yet
// returned as messages. Zero means the next call to Next may block on the
// input: the pipeline hands over what it has before that, so that a quiet
// tap does not keep messages waiting.
func (r *Reader) Buffered() int { return r.lr.br.Buffered() }
