package singer

import "testing"

func BenchmarkSkipObject(b *testing.B) {
	line := []byte(`{"id": 1, "uuid": "a6a3a450-0c5c-128b-d23f-1818892f902b", "customer": "Foxtrot Charlie", "email": "foxtrot.charlie@example.com", "amount": 47931.74, "qty": 59, "active": false, "created_at": "2024-04-02T02:27:26.073248Z", "updated_at": "2025-04-03T17:27:03+02:00", "address": {"street": "847 Golf Street", "city": "Charlie", "zip": "74115"}, "tags": ["foxtrot", "charlie", "golf"]}`)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		if skipObject(line, 0, 100) != len(line) {
			b.Fatal("wrong end")
		}
	}
}
