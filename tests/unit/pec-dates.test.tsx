// The French date input of the PEC screens (src/pec/DateInput.tsx) in jsdom, whose language is en-US: it shows and
// reads dd/mm/yyyy whatever the browser's language, and gives the API's yyyy-mm-dd.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DatePickerField, INVALID_DAY } from '../../src/admin/DatePickerField';
import { DATE_MESSAGE } from '#domain/pec';

beforeAll(() => {
  // A desktop pointer: the picker is the desktop one (a typeable field and a calendar button).
  window.matchMedia ??= ((query: string) => ({
    matches: query.includes('pointer: fine'),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
});

afterEach(cleanup);

/** The field once the picker has loaded (it is loaded on first use; a disabled field stands in meanwhile). */
async function dateField() {
  const input = () => screen.getByRole('textbox', { name: 'Date de facture' });
  // The picker is loaded on first use (its fallback is a disabled field): the first test pays the import, seconds on
  // a loaded machine (CI saw more than waitFor's default second).
  await waitFor(() => expect(input()).toBeEnabled(), { timeout: 10_000 });
  return input();
}

/** The field as a screen uses it: its value comes back from onChange. */
function Field({ initial = '', onChange }: { initial?: string; onChange: (day: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <DatePickerField
      label="Date de facture"
      value={value}
      onChange={(day) => {
        setValue(day);
        onChange(day);
      }}
    />
  );
}

describe('DatePickerField', () => {
  it('runs in an English environment (the case it exists for)', () => {
    expect(navigator.language).toBe('en-US');
  });

  it('shows a day as dd/mm/yyyy', async () => {
    render(<Field initial="2026-10-05" onChange={() => undefined} />);
    expect(await dateField()).toHaveValue('05/10/2026');
  });

  it('reads what is typed as day, month, year and gives yyyy-mm-dd; an unfinished date is not a date', async () => {
    const onChange = vi.fn();
    render(<Field onChange={onChange} />);
    const input = await dateField();
    await userEvent.click(input);
    await userEvent.keyboard('0510202');
    // Day and month typed, the year not finished: no day yet.
    expect(onChange).not.toHaveBeenCalledWith(expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/));
    await userEvent.keyboard('6');
    expect(input).toHaveValue('05/10/2026');
    expect(onChange).toHaveBeenLastCalledWith('2026-10-05');
  });

  it('a day that does not exist is invalid and says so; clearing gives no day once the field is left', async () => {
    const onChange = vi.fn();
    render(<Field initial="2026-02-10" onChange={onChange} />);
    const input = await dateField();
    await userEvent.click(input);
    await userEvent.keyboard('{Home}31');
    expect(onChange).toHaveBeenLastCalledWith(INVALID_DAY);
    expect(screen.getByText(DATE_MESSAGE)).toBeVisible();
    await userEvent.keyboard('{Control>}a{/Control}{Backspace}');
    expect(onChange).toHaveBeenLastCalledWith(INVALID_DAY);
    expect(screen.queryByText(DATE_MESSAGE)).toBeNull();
    await userEvent.tab();
    expect(onChange).toHaveBeenLastCalledWith('');
  });
});
