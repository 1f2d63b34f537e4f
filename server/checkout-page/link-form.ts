// The payment link's form on the customer's phone (bundled by assets.ts, well under 1 KB): the form works without
// it, as a plain POST. It only keeps a customer on a slow line from starting two payments with two taps (a
// single-use link would refuse the second as busy), and takes a field's error away once they start correcting it.
const form = document.querySelector<HTMLFormElement>("form[data-pay-form]");
const button = form?.querySelector<HTMLButtonElement>("button[type=submit]");
if (form && button) {
  const words = button.textContent ?? "";
  form.addEventListener("submit", () => {
    button.disabled = true;
    button.textContent = "Starting payment…";
  });
  // Back from the checkout, the browser may show this page as it was left: ready to pay again.
  window.addEventListener("pageshow", () => {
    button.disabled = false;
    button.textContent = words;
  });
  form.addEventListener("input", (e) => {
    const field = e.target as HTMLInputElement | HTMLSelectElement;
    const error = form.querySelector(`[id="${field.name}-error"]`);
    if (!error) return;
    error.remove();
    field.setAttribute("aria-invalid", "false");
    field.removeAttribute("aria-describedby");
  });
}
