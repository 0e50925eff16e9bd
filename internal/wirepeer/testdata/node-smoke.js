// A smoke test of the wire peer with a second client: node-oracledb in
// Thin mode (pure JavaScript). Run by TestNodeOracledbSmoke.
// argv: connect string (host:port/service), user, password.
const oracledb = require('oracledb');

async function main() {
  const [connectString, user, password] = process.argv.slice(2);
  const conn = await oracledb.getConnection({ user, password, connectString });
  const res = await conn.executeMany(
    'INSERT INTO T (A, B) VALUES (:1, :2)',
    [['a', 'x'], ['b', null]],
    { bindDefs: [{ type: oracledb.STRING, maxSize: 10 }, { type: oracledb.STRING, maxSize: 10 }] });
  await conn.commit();
  await conn.close();
  console.log(JSON.stringify({ rowsAffected: res.rowsAffected }));
}

main().catch((e) => { console.error(String(e && e.stack || e)); process.exit(1); });
