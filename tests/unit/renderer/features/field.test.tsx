import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Field, type FieldProblem } from '../../../../renderer/components/field';

function renderField(error: FieldProblem | null, hint?: string) {
  render(
    <Field label="Model" hint={hint} error={error}>
      {(control) => <input {...control} />}
    </Field>,
  );
  return screen.getByLabelText('Model');
}

describe('Field', () => {
  it('ties the label to the control and describes it by its hint only while the value is fine', () => {
    const input = renderField(null, 'Empty means the default.');
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(input.getAttribute('aria-describedby')).toBe(
      screen.getByText('Empty means the default.').id,
    );
  });

  it('marks the control invalid and describes it by the hint and the sentence', () => {
    const input = renderField('Use at most 200 characters.', 'A hint.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const ids = input.getAttribute('aria-describedby')!.split(' ');
    expect(ids).toEqual([screen.getByText('A hint.').id, screen.getByText(/at most 200/).id]);
  });

  it("shows the main process's refusal with its detail behind Details", () => {
    const input = renderField(
      { message: 'The setting was not saved.', detail: 'EACCES' },
      undefined,
    );
    expect(input.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('The setting was not saved.')).toBeTruthy();
    expect(screen.getByText('EACCES')).toBeTruthy();
  });

  it('is described first by a description outside it, such as a form explanation', () => {
    render(
      <>
        <p id="explain">Paste the id.</p>
        <Field label="Task id" describedBy="explain" hint="One line." error="Enter a task id.">
          {(control) => <input {...control} />}
        </Field>
      </>,
    );
    const ids = screen.getByLabelText('Task id').getAttribute('aria-describedby')!.split(' ');
    expect(ids).toEqual([
      'explain',
      screen.getByText('One line.').id,
      screen.getByText(/Enter a/).id,
    ]);
  });
});
