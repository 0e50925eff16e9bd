package config

import (
	"strings"
)

// oracleMaintained are the well-known users Oracle creates and maintains
// itself (ALL_USERS.ORACLE_MAINTAINED = 'Y'): the data dictionary's owner,
// the administrative users and the schemas of Oracle's own options. No
// load belongs in them; a loader with CREATE ANY TABLE could write there.
var oracleMaintained = []string{
	"SYS", "SYSTEM", "SYSBACKUP", "SYSDG", "SYSKM", "SYSRAC", "AUDSYS", "XDB", "OUTLN",
	"DBSNMP", "APPQOSSYS", "GSMADMIN_INTERNAL", "GSMCATUSER", "GSMUSER", "GSMROOTUSER",
	"LBACSYS", "MDSYS", "MDDATA", "CTXSYS", "ORDSYS", "ORDDATA", "ORDPLUGINS", "SI_INFORMTN_SCHEMA",
	"OJVMSYS", "WMSYS", "DVSYS", "DVF", "OLAPSYS", "DBSFWUSER", "REMOTE_SCHEDULER_AGENT",
	"GGSYS", "ANONYMOUS", "XS$NULL", "DIP", "ORACLE_OCM", "SYS$UMF", "EXFSYS", "MGMT_VIEW",
	"SYSMAN", "FLOWS_FILES", "DGPDB_INT",
}

// OracleMaintainedSchema reports whether schema is one of the schemas
// Oracle maintains (in any letter case: a quoted "sys" is no schema a
// load wants either).
func OracleMaintainedSchema(schema string) bool {
	for _, s := range oracleMaintained {
		if strings.EqualFold(schema, s) {
			return true
		}
	}
	return false
}

// convDefaultTargetSchema keeps default_target_schema as given. A literal
// schema is the user's explicit choice, used verbatim as mappings are
// (a test database's SYSTEM included); only a schema a stream's name
// routes to ({stream_schema}) is refused when Oracle maintains it, at the
// stream's SCHEMA.
func convDefaultTargetSchema(_ []setting, v any) (any, error) {
	return v.(string), nil
}
