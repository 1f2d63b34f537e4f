// The whole data model, as SQLite declares it: one file per domain under db/tables/. db/schema-pg.ts is derived from
// these (npm run db:generate), and the services import the tables chosen at start-up from db/schema.ts.
import type { payments, refunds } from "./tables/payments";
import type { sessions } from "./tables/people";
import type { providerAccounts } from "./tables/providers";
import type { settlements } from "./tables/settlements";

export * from "./tables/people";
export * from "./tables/keys";
export * from "./tables/payments";
export * from "./tables/providers";
export * from "./tables/deliveries";
export * from "./tables/operations";
export * from "./tables/settlements";
export * from "./tables/books";

export type SessionRow = typeof sessions.$inferSelect;
export type Mode = "test" | "live";
export type Role = "owner" | "admin" | "developer" | "viewer";
export type PaymentStatus = (typeof payments.$inferSelect)["status"];
export type PaymentRow = typeof payments.$inferSelect;
export type ProviderAccountRow = typeof providerAccounts.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;
export type SettlementRow = typeof settlements.$inferSelect;
