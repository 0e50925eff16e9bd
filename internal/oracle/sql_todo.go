package oracle

// SQL TODO: what the engine needs from oraclesql and works around here.
// Nothing in this file builds SQL text; it only selects among the
// renderer's statements. Each item should move into oraclesql.
//
//  1. NOT NULL and primary key membership of the migrated column are not
//     in the catalog after SET UNUSED … CASCADE CONSTRAINTS; a migration
//     killed between SET UNUSED and the end of FinishMigration comes back
//     nullable and, for a key column, without its primary key. Wanted:
//     the marker's comment (Renderer.markerComment, which already names the
//     column and carries its comment) also recording both.
