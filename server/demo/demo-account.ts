// The demo merchant `npm run seed` makes, and the sign-in the README and the seed's print give.
export const DEMO = { name: "Demo Store", email: "demo@owo.test", password: "owo sandbox naira" };
