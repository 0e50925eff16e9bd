package connect

import "github.com/target-oracle/target-oracle/internal/oraclesql"

// ---------------------------------------------------------------------
// LOCAL SQL — to be moved into internal/oraclesql (catalog.go) by the
// lead. oraclesql has no statements for these reads yet; they are kept
// here, in one place, as oraclesql.Statement values so the move is a cut
// and paste. Nothing else in this package writes SQL text, except the
// GRANT / ALTER USER advice Check prints for a DBA (never executed).
// ---------------------------------------------------------------------

// probeProduct returns one row: PRODUCT ('Oracle Database 19c Enterprise
// Edition', 'Oracle Database 23ai Free') and VERSION_FULL ('19.21.0.0.0';
// the column exists from 18c on: ORA-00904 before, then use
// probeProductOnly). PRODUCT_COMPONENT_VERSION is readable by every user.
func probeProduct() oraclesql.Statement {
	return oraclesql.Statement{
		SQL: "SELECT MAX(PCV.PRODUCT) AS PRODUCT, MAX(PCV.VERSION_FULL) AS VERSION_FULL" +
			" FROM PRODUCT_COMPONENT_VERSION PCV WHERE PCV.PRODUCT LIKE 'Oracle%'",
		Kind: oraclesql.KindQuery,
	}
}

// probeProductOnly is probeProduct for 12.2 (no VERSION_FULL).
func probeProductOnly() oraclesql.Statement {
	return oraclesql.Statement{
		SQL:  "SELECT MAX(PCV.PRODUCT) AS PRODUCT FROM PRODUCT_COMPONENT_VERSION PCV WHERE PCV.PRODUCT LIKE 'Oracle%'",
		Kind: oraclesql.KindQuery,
	}
}

// probeParameters returns rows (NAME, VALUE) for 'compatible',
// 'max_string_size' and 'max_columns' (23ai; absent before). V$PARAMETER needs SELECT_CATALOG_ROLE or SELECT on
// V_$PARAMETER: ORA-00942 otherwise.
func probeParameters() oraclesql.Statement {
	return oraclesql.Statement{
		SQL:  "SELECT PAR.NAME, PAR.VALUE FROM V$PARAMETER PAR WHERE PAR.NAME IN ('compatible', 'max_string_size', 'max_columns')",
		Kind: oraclesql.KindQuery,
	}
}

// probeCompatibleLevel returns one row: the COMPATIBLE value. The view is
// meant to be readable by every user [verify on a real DB].
func probeCompatibleLevel() oraclesql.Statement {
	return oraclesql.Statement{SQL: "SELECT DCL.VALUE FROM DATABASE_COMPATIBLE_LEVEL DCL", Kind: oraclesql.KindQuery}
}

// probeCloud returns one row: SYS_CONTEXT('USERENV','CLOUD_SERVICE')
// ('OLTP', 'DWCS', 'JDCS', 'PAAS' on Autonomous Database; NULL elsewhere)
// and the session's SERVICE_NAME. Before 18c the CLOUD_SERVICE parameter
// does not exist (ORA-02003): not Autonomous.
func probeCloud() oraclesql.Statement {
	return oraclesql.Statement{
		SQL: "SELECT SYS_CONTEXT('USERENV', 'CLOUD_SERVICE') AS CLOUD_SERVICE," +
			" SYS_CONTEXT('USERENV', 'SERVICE_NAME') AS SERVICE_NAME FROM DUAL",
		Kind: oraclesql.KindQuery,
	}
}

// probeDefaultTablespace returns one row: the session user's
// DEFAULT_TABLESPACE (USER_USERS is readable by every user).
func probeDefaultTablespace() oraclesql.Statement {
	return oraclesql.Statement{SQL: "SELECT UU.DEFAULT_TABLESPACE FROM USER_USERS UU", Kind: oraclesql.KindQuery}
}

// probeOwnerTablespace returns one row: another user's
// DEFAULT_TABLESPACE. DBA_USERS needs SELECT_CATALOG_ROLE (ORA-00942
// otherwise: the quota of another schema cannot be checked).
func probeOwnerTablespace(owner string) oraclesql.Statement {
	return oraclesql.Statement{
		SQL:   "SELECT DU.DEFAULT_TABLESPACE FROM DBA_USERS DU WHERE DU.USERNAME = :1",
		Binds: []oraclesql.Bind{fixedBind("owner", owner)},
		Kind:  oraclesql.KindQuery,
	}
}

// probeOwnerQuotas returns another user's quotas: TABLESPACE_NAME, BYTES,
// MAX_BYTES (-1: unlimited). Needs SELECT on DBA_TS_QUOTAS.
func probeOwnerQuotas(owner string) oraclesql.Statement {
	return oraclesql.Statement{
		SQL: "SELECT DQ.TABLESPACE_NAME, DQ.BYTES, DQ.MAX_BYTES FROM DBA_TS_QUOTAS DQ" +
			" WHERE DQ.USERNAME = :1 ORDER BY DQ.TABLESPACE_NAME",
		Binds: []oraclesql.Bind{fixedBind("owner", owner)},
		Kind:  oraclesql.KindQuery,
	}
}

// probeOwnerUnlimited returns a row when another user holds UNLIMITED
// TABLESPACE by a direct grant. Needs SELECT on DBA_SYS_PRIVS.
func probeOwnerUnlimited(owner string) oraclesql.Statement {
	return oraclesql.Statement{
		SQL: "SELECT DSP.PRIVILEGE FROM DBA_SYS_PRIVS DSP WHERE DSP.GRANTEE = :1" +
			" AND DSP.PRIVILEGE = 'UNLIMITED TABLESPACE'",
		Binds: []oraclesql.Bind{fixedBind("owner", owner)},
		Kind:  oraclesql.KindQuery,
	}
}

// fixedBind is oraclesql's unexported fixed(): a catalog name as text.
func fixedBind(label, v string) oraclesql.Bind {
	return oraclesql.Bind{Column: label, Source: oraclesql.Fixed, Value: v}
}

// args returns a statement's bind values (catalog statements bind only
// Fixed values).
func args(st oraclesql.Statement) []any {
	out := make([]any, len(st.Binds))
	for i, b := range st.Binds {
		out[i] = b.Value
	}
	return out
}
