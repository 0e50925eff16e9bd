-- DDL ignore=[955]
CREATE TABLE "select" ("from" VARCHAR2(100 CHAR) NOT NULL, "Order ID" NUMBER(38,0) NOT NULL, "o'brien" VARCHAR2(100 CHAR), "payload" CLOB CONSTRAINT "select_payload_JSON" CHECK ("payload" IS JSON), "ROWNUM_" NUMBER(1) CONSTRAINT "select_ROWNUM__d533ddde_BOOL" CHECK ("ROWNUM_" IN (0, 1)), CONSTRAINT "select_PK" PRIMARY KEY ("from", "Order ID"))
/
-- DDL
COMMENT ON COLUMN "select"."from" IS 'target-oracle:path=["from"]'
/
-- DDL
COMMENT ON COLUMN "select"."Order ID" IS 'target-oracle:path=["Order ID"]'
/
-- DDL
COMMENT ON COLUMN "select"."o'brien" IS 'target-oracle:path=["o''brien"]'
/
-- DDL
COMMENT ON COLUMN "select"."payload" IS 'target-oracle:path=["payload"]'
/
-- DDL
COMMENT ON COLUMN "select"."ROWNUM_" IS 'target-oracle:path=["ROWNUM_"]'
/
