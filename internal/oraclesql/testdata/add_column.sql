-- DDL ignore=[1430]
ALTER TABLE "SHOP"."CUSTOMERS" ADD ("ZIP" VARCHAR2(100 CHAR))
/
-- DDL
COMMENT ON COLUMN "SHOP"."CUSTOMERS"."ZIP" IS 'target-oracle:path=["address","zip"]'
/
