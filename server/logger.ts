// JSON logs (pino); every request line carries its request id.
import pino from "pino";

const holder = globalThis as unknown as { __owoLog?: pino.Logger };
holder.__owoLog ??= pino({ level: process.env.LOG_LEVEL ?? "info", base: { app: "owo" } });
export const log: pino.Logger = holder.__owoLog;
