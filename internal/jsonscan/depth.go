package jsonscan

// MaxDepth is the deepest nesting of objects and arrays the target reads
// in a line, counting the message object itself as level 1: the reader
// (singer) refuses deeper input, and every walk over a record's JSON after
// it (the one-pass check in schema, the stream maps' decoder) stops at the
// same depth, so none of them recurses further than the reader allows.
const MaxDepth = 1000
