-- DML rows=upsert
-- :1 "from" VARCHAR2(100 CHAR) row[0]
-- :2 "Order ID" NUMBER(38,0) row[1]
-- :3 "o'brien" VARCHAR2(100 CHAR) row[2]
-- :4 "ROWNUM_" NUMBER(1) row[4]
-- :5 "payload" CLOB row[3]
MERGE INTO "select" TGT USING (SELECT :1 "from", TO_NUMBER(:2) "Order ID", :3 "o'brien", TO_NUMBER(:4) "ROWNUM_", :5 "payload" FROM DUAL) SRC ON (TGT."from" = SRC."from" AND TGT."Order ID" = SRC."Order ID") WHEN MATCHED THEN UPDATE SET TGT."o'brien" = SRC."o'brien", TGT."ROWNUM_" = SRC."ROWNUM_", TGT."payload" = SRC."payload" WHEN NOT MATCHED THEN INSERT ("from", "Order ID", "o'brien", "ROWNUM_", "payload") VALUES (SRC."from", SRC."Order ID", SRC."o'brien", SRC."ROWNUM_", SRC."payload")
/
-- DML rows=hard-delete
-- :1 "from" VARCHAR2(100 CHAR) row[0]
-- :2 "Order ID" NUMBER(38,0) row[1]
DELETE FROM "select" WHERE "from" = :1 AND "Order ID" = TO_NUMBER(:2)
/
