// JSON logs (pino); every request line carries its request id.
import pino from "pino";
import { environment } from "../environment";

const holder = globalThis as unknown as { __owoLog?: pino.Logger };
holder.__owoLog ??= pino({ level: environment("logLevel"), base: { app: "owo" } });
export const log: pino.Logger = holder.__owoLog;
