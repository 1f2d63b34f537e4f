// Copying text for a person, on any phone: the clipboard API where there is one, a hidden textarea where there is not.
// Shared by the dashboard's copy buttons (copy-button.tsx) and the hosted checkout's script (server/checkout-page).
export async function copyText(value: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(value);
  } catch {
    // Older phones and non-secure origins have no clipboard API; a hidden textarea still copies there.
    const area = Object.assign(document.createElement("textarea"), { value });
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}
