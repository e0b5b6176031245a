/**
 * A rule's answer when the input is wrong: the message and the field it belongs to, so a form shows it on that
 * field (or under the form, 'form') without comparing texts. The server sends the same pair in its error
 * envelope (`field`), so a refusal found only there (an e-mail in use) lands on its field too.
 */
export interface FieldError<Field extends string = string> {
  field: Field;
  message: string;
}

export const fieldError = <Field extends string>(field: Field, message: string): FieldError<Field> => ({
  field,
  message,
});
