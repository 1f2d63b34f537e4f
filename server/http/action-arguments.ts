// Server actions are public POST endpoints: a client may post any arguments, of any shape, whatever the form sends.
// Each action reads its arguments through its schema here first; anything else is refused in words, never a 500.
import { z } from "zod";

/** What an action answers for arguments it never asked for. */
export const UNREADABLE = "This request could not be read; reload the page and try again.";

/** The action's arguments as its schema reads them, or null when they are of another shape. */
export function actionArguments<S extends z.ZodType>(schema: S, args: unknown): z.output<S> | null {
  const parsed = schema.safeParse(args);
  return parsed.success ? parsed.data : null;
}

/** A form field as a person can type it: text, not too long for anything Owo stores. */
export const typed = (max = 1000) => z.string().max(max);
