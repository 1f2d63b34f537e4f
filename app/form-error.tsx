// A form's failure in one sentence, announced to screen readers: the message of a refused mutation, sign-in or payment.
export function FormError({ message }: { message: string | null | undefined }) {
  return message ? (
    <p role="alert" className="form-error">
      {message}
    </p>
  ) : null;
}
