// The initiation schema words its refusals for developers (API.md: the field, and what the wire expects). The form's
// reader is a person at a dashboard: for the two fields whose words speak of the wire, they are told what to do.
import { naira } from "@/app/payment-display";

const RANGE = /^must be from (\d+\.\d\d) to (\d+\.\d\d) for (USSD|TRANSFER)$/;

/** The words shown after the field's label ("Amount …", "Customer's bank …"), from the server's message for it. */
export function fieldWords(field: string, message: string): string {
  if (field === "bankCode") return "is needed for USSD: choose the bank your customer will dial from.";
  if (field !== "amount") return message;
  const range = RANGE.exec(message);
  if (range) return `must be from ${naira(range[1] ?? "")} to ${naira(range[2] ?? "")} for ${range[3] === "USSD" ? "USSD" : "a transfer"}.`;
  return "must be in naira, such as 1,500.00 or 1500 (kobo after the point, at most two digits).";
}
