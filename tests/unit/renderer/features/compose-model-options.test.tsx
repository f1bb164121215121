/**
 * The compose form's model options, built from the chosen model's shipped schema: every control
 * kind (a choice, a whole number, a number with a step, a switch, text), ranges and defaults
 * shown, the common options first and the rest under "More options", a refused value named
 * before sending as main names it, in English, German and Arabic; options remembered per model;
 * the seed's field and lock.
 */
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ComposeModelOptions } from '../../../../renderer/features/compose/model-options';
import { applyLocale } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import { requestOf } from '../../../../renderer/store/compose-submit-actions';
import type { ProviderId } from '../../../../shared/domain/providers';

afterEach(async () => {
  await applyLocale('en');
});

function showModel(provider: ProviderId, model: string) {
  act(() => useAppStore.getState().composeSetDraft({ provider, model, prompt: 'a fox' }));
  render(<ComposeModelOptions />);
  return userEvent.setup();
}

const draft = () => useAppStore.getState().composeDraft;

describe('the options of fal’s FLUX.1 [dev]', () => {
  it('are typed controls with their ranges and defaults, the common ones in order', () => {
    showModel('fal', 'fal-ai/flux/dev');
    const group = screen.getByRole('group', { name: 'Model options' });
    const labels = within(group)
      .getAllByText(/./, { selector: 'label.field__label' })
      .map((label) => label.textContent);
    expect(labels).toEqual([
      'Seed',
      'Images per task',
      'Guidance',
      'Steps',
      'Output format',
      'Safety',
    ]);
    const format = screen.getByRole('combobox', { name: 'Output format' });
    expect(
      within(format)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Default (jpeg)', 'jpeg', 'png']);
    expect(screen.getByRole('textbox', { name: 'Steps' })).toHaveProperty('placeholder', '28');
    expect(screen.getByText('From 1 to 50')).toBeTruthy();
    expect(screen.getByText('From 1 to 20, in steps of 0.5')).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Safety' })).toHaveProperty('checked', true);
    expect(screen.getByRole('textbox', { name: 'Seed' })).toHaveProperty('placeholder', 'Random');
    // Nothing typed, nothing sent: the service's defaults hold.
    const { request } = requestOf(draft());
    expect(request).toMatchObject({ prompt: 'a fox', model: 'fal-ai/flux/dev' });
    expect([request.params, request.seed]).toEqual([undefined, undefined]);
  });

  it('go with the request as their kinds, and a refused one is named before sending', async () => {
    const user = showModel('fal', 'fal-ai/flux/dev');
    await user.type(screen.getByRole('textbox', { name: 'Steps' }), '99');
    expect(
      screen.getByText('The option “num_inference_steps” takes a whole number from 1 to 50.'),
    ).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Steps' }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(await useAppStore.getState().composeSubmit()).toEqual({ ok: false });
    await user.clear(screen.getByRole('textbox', { name: 'Steps' }));
    await user.type(screen.getByRole('textbox', { name: 'Steps' }), '20');
    await user.type(screen.getByRole('textbox', { name: 'Guidance' }), '4.5');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Output format' }), 'png');
    await user.click(screen.getByRole('switch', { name: 'Safety' }));
    expect(screen.queryByText(/takes a/)).toBeNull();
    expect(requestOf(draft()).request.params).toEqual({
      num_inference_steps: 20,
      guidance_scale: 4.5,
      output_format: 'png',
      enable_safety_checker: false,
    });
  });

  it('a number off its step is named before sending, as main and the CLI name it', async () => {
    const user = showModel('fal', 'fal-ai/flux/dev');
    await user.type(screen.getByRole('textbox', { name: 'Guidance' }), '4.3');
    expect(
      screen.getByText('The option “guidance_scale” takes a multiple of 0.5 from 1 to 20.'),
    ).toBeTruthy();
    expect(await useAppStore.getState().composeSubmit()).toEqual({ ok: false });
    await user.clear(screen.getByRole('textbox', { name: 'Guidance' }));
    await user.type(screen.getByRole('textbox', { name: 'Guidance' }), '4.5');
    expect(screen.queryByText(/takes a/)).toBeNull();
    expect(requestOf(draft()).request.params).toEqual({ guidance_scale: 4.5 });
  });

  it('are remembered per model: another model has its own, this one finds them again', async () => {
    const user = showModel('fal', 'fal-ai/flux/dev');
    await user.type(screen.getByRole('textbox', { name: 'Steps' }), '12');
    act(() => useAppStore.getState().composeSetDraft({ model: 'fal-ai/flux/schnell' }));
    expect(screen.getByRole('textbox', { name: 'Steps' })).toHaveProperty('value', '');
    expect(requestOf(draft()).request.params).toBeUndefined();
    act(() => useAppStore.getState().composeSetDraft({ model: 'fal-ai/flux/dev' }));
    expect(screen.getByRole('textbox', { name: 'Steps' })).toHaveProperty('value', '12');
  });
});

describe('text and the less common options', () => {
  it('show a negative prompt as text and fold the rest under More options', async () => {
    const user = showModel('dashscope', 'wanx2.1-t2i-turbo');
    const more = screen.getByText('More options').closest('details')!;
    expect(more.open).toBe(false);
    expect(within(more).getByRole('switch', { name: 'prompt_extend' })).toHaveProperty(
      'checked',
      true,
    );
    expect(within(more).getByRole('switch', { name: 'watermark' })).toHaveProperty(
      'checked',
      false,
    );
    const negative = screen.getByRole('textbox', { name: 'Negative prompt' });
    expect(more.contains(negative)).toBe(false);
    // Pasted, then one key: the same change handler, without 501 simulated keystrokes.
    const refusal = 'The option “negative_prompt” takes text of at most 500 characters.';
    await user.click(negative);
    await user.paste('x'.repeat(500));
    expect(screen.queryByText(refusal)).toBeNull();
    await user.type(negative, 'x');
    expect((negative as HTMLTextAreaElement | HTMLInputElement).value).toHaveLength(501);
    expect(screen.getByText(refusal)).toBeTruthy();
  });

  it('a model Pictor has no schema for shows no options', () => {
    showModel('pictor', 'gpt-image-1');
    expect(screen.queryByRole('group', { name: 'Model options' })).toBeNull();
  });
});

describe('in the reader’s language', () => {
  it('German: labels, a decimal comma read as the number, a refusal in German', async () => {
    await act(() => applyLocale('de'));
    const user = showModel('fal', 'fal-ai/flux/dev');
    expect(screen.getByRole('group', { name: 'Modelloptionen' })).toBeTruthy();
    expect(screen.getByText('Von 1 bis 20, in Schritten von 0,5')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Guidance' }), '3,5');
    expect(requestOf(draft()).request.params).toEqual({ guidance_scale: 3.5 });
    await user.type(screen.getByRole('textbox', { name: 'Schritte' }), '0');
    expect(
      screen.getByText('Die Option „num_inference_steps“ nimmt eine ganze Zahl von 1 bis 50.'),
    ).toBeTruthy();
  });

  it('Arabic: labels and the refusal in Arabic, naming the option', async () => {
    await act(() => applyLocale('ar'));
    const user = showModel('fal', 'fal-ai/nano-banana-pro');
    expect(screen.getByRole('group', { name: 'خيارات النموذج' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'نسبة العرض إلى الارتفاع' })).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'عدد الصور لكل مهمة' }), '9');
    const refusal = screen.getByText(/num_images/);
    expect(refusal.textContent).toMatch(/^يأخذ الخيار «num_images» عددًا صحيحًا من .+ إلى .+\.$/);
  });
});

describe('every control kind in the reader’s language', () => {
  it.each([
    {
      locale: 'de',
      words: ['Modelloptionen', 'Ausgabeformat', 'Standard (jpeg)', 'Schritte', 'Sicherheit'],
      range: /^Von 1 bis 50$/,
      random: 'Zufällig',
      more: ['Weitere Optionen', 'Negativer Prompt'],
    },
    {
      locale: 'ar',
      words: ['خيارات النموذج', 'صيغة الإخراج', 'الافتراضي (jpeg)', 'الخطوات', 'الأمان'],
      range: /^من \S+ إلى \S+$/,
      random: 'عشوائية',
      more: ['مزيد من الخيارات', 'الموجّه السلبي'],
    },
  ] as const)(
    '$locale: a choice, numbers with ranges and defaults, a switch, the seed and text',
    async ({ locale, words, range, random, more }) => {
      await act(() => applyLocale(locale));
      showModel('fal', 'fal-ai/flux/dev');
      const [group, format, fallback, steps, safety] = words;
      expect(screen.getByRole('group', { name: group })).toBeTruthy();
      const choice = screen.getByRole('combobox', { name: format });
      expect(within(choice).getAllByRole('option')[0]?.textContent).toBe(fallback);
      expect(screen.getByRole('textbox', { name: steps })).toHaveProperty('placeholder', '28');
      expect(screen.getAllByText(range).length).toBeGreaterThan(0);
      expect(screen.getByRole('switch', { name: safety })).toHaveProperty('checked', true);
      expect(screen.getAllByPlaceholderText(random).length).toBe(1);
      cleanup();
      showModel('dashscope', 'wanx2.1-t2i-turbo');
      const [folded, negative] = more;
      expect(screen.getByText(folded).closest('details')?.open).toBe(false);
      expect(screen.getByRole('textbox', { name: negative })).toBeTruthy();
    },
  );
});

describe('the seed', () => {
  it('is sent when typed, locked with its box, and a refused one named', async () => {
    const user = showModel('fal', 'fal-ai/flux/dev');
    await user.type(screen.getByRole('textbox', { name: 'Seed' }), '1234');
    expect(requestOf(draft()).request.seed).toBe(1234);
    expect(draft().seedLocked).toBe(false);
    await user.click(screen.getByRole('checkbox', { name: 'Keep this seed' }));
    expect(draft().seedLocked).toBe(true);
    await user.clear(screen.getByRole('textbox', { name: 'Seed' }));
    await user.type(screen.getByRole('textbox', { name: 'Seed' }), '-1');
    expect(
      screen.getByText(/^The option “seed” takes a whole number from 0 to 2.?147.?483.?647\.$/),
    ).toBeTruthy();
  });

  it('"Use this seed" brings the request back with its seed, locked, and its options', () => {
    showModel('fal', 'fal-ai/flux/schnell');
    act(() =>
      useAppStore.getState().reusePrompt(
        {
          prompt: 'again',
          model: 'fal-ai/flux/dev',
          params: { num_inference_steps: 8 },
          seed: 77,
        },
        'fal',
      ),
    );
    expect(draft()).toMatchObject({ seed: '77', seedLocked: true, model: 'fal-ai/flux/dev' });
    expect(screen.getByRole('textbox', { name: 'Seed' })).toHaveProperty('value', '77');
    expect(screen.getByRole('textbox', { name: 'Steps' })).toHaveProperty('value', '8');
    expect(requestOf(draft()).request).toMatchObject({
      params: { num_inference_steps: 8 },
      seed: 77,
    });
  });
});
