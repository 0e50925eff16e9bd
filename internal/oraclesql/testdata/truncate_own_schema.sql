-- DDL
TRUNCATE TABLE "select"
/
