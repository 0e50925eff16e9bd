-- DDL ignore=[1430]
ALTER TABLE "SHOP"."CUSTOMERS" ADD ("ANY" CLOB)
/
-- DDL
COMMENT ON COLUMN "SHOP"."CUSTOMERS"."ANY" IS 'target-oracle:path=["any"] json-text'
/
