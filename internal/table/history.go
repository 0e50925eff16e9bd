package table

// History columns (load_method history, SPEC §6.2): added whatever
// AddRecordMetadata says; the primary key is the key columns plus
// MetaValidFrom.
const (
	MetaValidFrom = "_SDC_VALID_FROM"
	MetaValidTo   = "_SDC_VALID_TO"
	MetaIsCurrent = "_SDC_IS_CURRENT"
	MetaRowHash   = "_SDC_ROW_HASH"
)

// HistoryColumns lists the history columns in the order a new table gets
// them, after the other metadata columns.
func HistoryColumns() [4]string {
	return [...]string{MetaValidFrom, MetaValidTo, MetaIsCurrent, MetaRowHash}
}

// HistoryType is the type of a history column. Valid-froms keep
// nanoseconds whatever timestamp_type says: a version 1 µs after another
// must stay apart, and property values may carry 9 digits. Both are
// TIMESTAMP(9) holding the UTC instant, without TIME ZONE: the valid-from
// is in the primary key, and Oracle refuses a TIMESTAMP WITH TIME ZONE
// column there (ORA-02329; SPEC §6.2 names WITH TIME ZONE, which no
// Oracle server accepts in a key); the valid-to takes the same type, as
// it is set from a valid-from.
func (o *Options) HistoryType(name string) Type {
	switch name {
	case MetaIsCurrent:
		return o.BoolType()
	case MetaRowHash:
		return Type{Kind: KindVarchar, Length: 64} // hex SHA-256
	}
	return Type{Kind: KindTimestamp, Frac: 9}
}

// IsHistory reports whether t has the shape a history load made: the four
// history columns, and a primary key that ends with MetaValidFrom.
func (t *Table) IsHistory() bool {
	for _, m := range HistoryColumns() {
		if t.Column(m) == nil {
			return false
		}
	}
	n := len(t.PrimaryKey)
	return n >= 2 && t.PrimaryKey[n-1] == MetaValidFrom
}
