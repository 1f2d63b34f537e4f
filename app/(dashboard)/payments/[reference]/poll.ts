// How often an open payment page asks again: quick enough to feel live, slow enough to stay cheap.
export const POLL_MS = 2500;
