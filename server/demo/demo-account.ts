// The demo merchant `npm run seed` makes, and the sign-in the README and the seed's print give.
export const DEMO = { name: "Demo Store", email: "demo@owo.test", password: "owo sandbox naira" };

/** What the demo's customers are told to reach it by (its business profile), so the checkout shows it from the start. */
export const DEMO_SUPPORT = { supportEmail: "help@demo-store.example", supportPhone: "+234 801 234 5678" };
