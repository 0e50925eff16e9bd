package oracle

// SQL TODO: what the engine needs from oraclesql and works around here.
// Nothing in this file builds SQL text; it only selects among the
// renderer's statements. Each item should move into oraclesql.
//
// No item is open. The last one (a migration killed after SET UNUSED …
// CASCADE CONSTRAINTS came back nullable and without its primary key)
// was closed by recording both in the marker's comment
// (table.MarkerFacts, Renderer.markerComment; restoreFacts).
//
// Still not recorded: custom indexes on the migrated column, which SET
// UNUSED drops too; a migration killed before they are made again leaves
// them to the next run's index checks (custom_indexes).
