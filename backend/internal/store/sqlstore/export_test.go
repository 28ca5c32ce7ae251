package sqlstore

import "strings"

// TransferTables lists the table each kind of record is exported from.
func TransferTables() []string {
	var out []string
	for _, k := range transferKinds {
		table, _, _ := strings.Cut(k.from, " ")
		out = append(out, table)
	}
	return out
}
