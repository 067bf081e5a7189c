/** A status or outcome: its symbol and its word, with a colour class as a third signal. */
import { symbolOf, words } from './format';

export function Badge({ value, label }: { value: string | null; label: string }) {
  return (
    <span class={`badge badge-${value ?? 'none'}`} title={`${label}: ${words(value)}`}>
      <span aria-hidden="true">{symbolOf(value)}</span> {words(value)}
    </span>
  );
}
