import type { ComponentProps } from 'react';

/**
 * The app's plain button: always type="button", so one inside a form never submits it by
 * accident (a form's own submit button stays a <button type="submit">), and its test id as
 * `testId` like the kits'. It renders a bare <button>: the classes (btn, btn--small…) stay the caller's.
 */
export function Button({ testId, ...props }: Omit<ComponentProps<'button'>, 'type'> & { testId?: string }) {
  return <button type="button" data-testid={testId} {...props} />;
}
