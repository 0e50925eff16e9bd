-- DDL
COMMENT ON TABLE "SHOP"."CUSTOMERS" IS 'target-oracle:streams=["customers"]; replaced_key=["ID"]'
/
-- DDL ignore=[2441]
ALTER TABLE "SHOP"."CUSTOMERS" DROP PRIMARY KEY
/
-- DDL ignore=[1451]
ALTER TABLE "SHOP"."CUSTOMERS" MODIFY ("ID" NULL)
/
