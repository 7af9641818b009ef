// @vitest-environment jsdom
// The wizard's probes step edits the protocol's own draft: pairwise hides the scale and rubric,
// turning length and format off hides the rewriter, and the config follows.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { i18next } from '../../i18n';
import { useWizard } from '../../stores/wizard';
import { biasConfig, biasDraft, validateBias } from './draft';
import {
  registerBiasProbe,
  unregisterBiasProbe,
} from '../../../../shared/protocols/bias-probes/probe-registry';
import type { BiasProbe } from '../../../../shared/protocols/bias-probes/probe-types';
import '../index';
import { ProbesStep } from './ProbesStep';
import { SummaryLines } from './SummaryLines';

afterEach(() => {
  cleanup();
  useWizard.getState().reset();
});

describe('the probes step', () => {
  it('edits mode, probes and rewriter into the config keys', () => {
    render(<ProbesStep />);
    expect(screen.getByText('What to probe')).toBeTruthy();
    expect(screen.getByTestId('bias-scale')).toBeTruthy();
    fireEvent.click(screen.getByTestId('bias-mode-pairwise'));
    expect(screen.queryByTestId('bias-scale')).toBeNull();
    expect(screen.queryByTestId('bias-rubric')).toBeNull();
    fireEvent.change(screen.getByTestId('rewriter-model'), { target: { value: 'my-rewriter' } });
    fireEvent.change(screen.getByTestId('bias-band-1'), { target: { value: '1.8' } });
    expect(biasConfig(useWizard.getState().draft)).toMatchObject({
      mode: 'pairwise',
      probes: ['position', 'length', 'format'],
      lengthBand: [1.3, 1.8],
      rewriter: { model: 'my-rewriter' },
    });
    fireEvent.click(screen.getByTestId('probe-length'));
    fireEvent.click(screen.getByTestId('probe-format'));
    expect(screen.queryByTestId('rewriter-model')).toBeNull();
    expect(biasConfig(useWizard.getState().draft)).not.toHaveProperty('rewriter');
  });

  it('asks for the noise floor only when the box is ticked (EN and 中文)', async () => {
    render(<ProbesStep />);
    expect(screen.getByText('Measure the noise floor')).toBeTruthy();
    expect(biasConfig(useWizard.getState().draft)).not.toHaveProperty('noiseFloor');
    fireEvent.click(screen.getByTestId('option-noise-floor'));
    expect(biasConfig(useWizard.getState().draft)).toMatchObject({ noiseFloor: true });
    fireEvent.click(screen.getByTestId('option-noise-floor'));
    expect(biasConfig(useWizard.getState().draft)).not.toHaveProperty('noiseFloor');
    await i18next.changeLanguage('zh');
    try {
      expect(await screen.findByText('测量噪声底线')).toBeTruthy();
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  describe('a chosen probe’s own options and the paraphrase count', () => {
    // A probe defined here only, declaring one option of each kind the step draws.
    const probe: BiasProbe = {
      id: 'optioned',
      conditions: [
        {
          id: 'optioned',
          name: { en: 'Optioned', zh: '带选项' },
          text: { same: true },
          pointwise: true,
          pairwise: null,
          prompt: (p) => p,
        },
      ],
      effects: [
        {
          id: 'optioned',
          measure: 'paired-change',
          variant: 'optioned',
          base: 'original',
          modes: ['pointwise'],
          placebo: 'original',
          label: { pointwise: { en: 'Optioned − none', zh: '带选项 − 无' } },
          short: { en: 'optioned', zh: '带选项' },
        },
      ],
      options: [
        {
          key: 'style',
          schema: z.enum(['names', 'initials']),
          default: 'names',
          label: { en: 'How names are written', zh: '名称写法' },
        },
        {
          key: 'share',
          schema: z.number().min(0).max(1),
          default: 0.5,
          label: { en: 'Share of items', zh: '条目比例' },
        },
      ],
      optIn: true,
      texts: { name: { en: 'optioned', zh: '带选项' } },
    };
    beforeAll(() => registerBiasProbe(probe));
    afterAll(() => unregisterBiasProbe('optioned'));

    it('shows the options only when the probe is chosen, with its labels, and writes probeOptions (EN, 中文)', async () => {
      render(<ProbesStep />);
      expect(screen.queryByTestId('probe-options-optioned')).toBeNull();
      expect(screen.queryByTestId('bias-paraphrases')).toBeNull();
      fireEvent.click(screen.getByTestId('probe-optioned'));
      const box = screen.getByTestId('probe-options-optioned');
      expect(box.textContent).toContain('Options of the optioned probe');
      expect(box.textContent).toContain('How names are written');
      // Defaults shown, none written: the core fills them in.
      expect((screen.getByTestId('probe-option-optioned-style') as HTMLSelectElement).value).toBe('names');
      expect(biasConfig(useWizard.getState().draft)).not.toHaveProperty('probeOptions');
      fireEvent.change(screen.getByTestId('probe-option-optioned-style'), { target: { value: 'initials' } });
      fireEvent.change(screen.getByTestId('probe-option-optioned-share'), { target: { value: '0.25' } });
      expect(biasConfig(useWizard.getState().draft)).toMatchObject({
        probeOptions: { optioned: { style: 'initials', share: 0.25 } },
      });
      expect(validateBias(useWizard.getState().draft)).toEqual([]);
      await i18next.changeLanguage('zh');
      try {
        expect((await screen.findByTestId('probe-options-optioned')).textContent).toContain(
          '带选项探针的选项',
        );
        expect(screen.getByTestId('probe-options-optioned').textContent).toContain('名称写法');
      } finally {
        await i18next.changeLanguage('en');
      }
      // The summary's recap names them as set.
      render(
        <dl>
          <SummaryLines />
        </dl>,
      );
      expect(screen.getByTestId('summary-bias-options-optioned').textContent).toBe(
        'How names are written: initials · Share of items: 0.25',
      );
      // The probe turned off again: its options leave the config.
      fireEvent.click(screen.getByTestId('probe-optioned'));
      expect(biasConfig(useWizard.getState().draft)).not.toHaveProperty('probeOptions');
    });

    it('refuses a value the option’s schema refuses, naming the field', () => {
      render(<ProbesStep />);
      fireEvent.click(screen.getByTestId('probe-optioned'));
      fireEvent.change(screen.getByTestId('probe-option-optioned-share'), { target: { value: '3' } });
      const issues = validateBias(useWizard.getState().draft);
      expect(issues).toEqual([
        expect.objectContaining({ field: 'probeOptions.optioned.share', code: 'optionInvalid' }),
      ]);
      expect(i18next.t('bias-probes:wizard.errors.optionInvalid', issues[0].params)).toMatch(
        /^Not a value this option takes: /,
      );
    });

    it('asks the paraphrase count with the rubric probe, checked from 1 to 5', () => {
      render(<ProbesStep />);
      fireEvent.click(screen.getByTestId('probe-rubric'));
      const input = screen.getByTestId('bias-paraphrases') as HTMLInputElement;
      expect(input.value).toBe('3');
      expect(biasConfig(useWizard.getState().draft)).not.toHaveProperty('paraphrases');
      fireEvent.change(input, { target: { value: '2' } });
      expect(biasConfig(useWizard.getState().draft)).toMatchObject({ paraphrases: 2 });
      render(
        <dl>
          <SummaryLines />
        </dl>,
      );
      expect(screen.getByTestId('summary-bias-paraphrases').textContent).toBe('2');
      fireEvent.change(input, { target: { value: '7' } });
      expect(biasDraft(useWizard.getState().draft).paraphrases).toBe(7);
      expect(validateBias(useWizard.getState().draft)).toEqual([
        { field: 'paraphrases', code: 'paraphrasesInvalid', params: { min: 1, max: 5 } },
      ]);
      expect(i18next.t('bias-probes:wizard.errors.paraphrasesInvalid', { min: 1, max: 5 })).toBe(
        'A whole number of paraphrases from 1 to 5.',
      );
    });
  });
});
