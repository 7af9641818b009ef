// @vitest-environment jsdom
// The answers step's noise-floor box: config `noiseFloor` only when ticked, and only while the
// sensitivity part runs NR (the placebo repeats NR verdicts; the core refuses it otherwise).
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18next } from '../../i18n';
import { useWizard } from '../../stores/wizard';
import '../index';
import { refSensConfig } from './draft';
import { GeneratorsStep } from './GeneratorsStep';

afterEach(() => {
  cleanup();
  useWizard.getState().reset();
});

const config = () => refSensConfig(useWizard.getState().draft);
const box = () => screen.getByTestId('option-noise-floor') as HTMLInputElement;

describe('the reference-sensitivity noise floor option', () => {
  it('asks for NR twice only when the box is ticked', () => {
    render(<GeneratorsStep />);
    expect(screen.getByText('Measure the noise floor')).toBeTruthy();
    expect(box().checked).toBe(false);
    expect(config()).not.toHaveProperty('noiseFloor');
    fireEvent.click(box());
    expect(config()).toMatchObject({ noiseFloor: true, parts: { settings: ['NR', 'RV', 'RC'] } });
    fireEvent.click(box());
    expect(config()).not.toHaveProperty('noiseFloor');
  });

  it('is off and says why while NR is not judged', () => {
    render(<GeneratorsStep />);
    fireEvent.click(box());
    fireEvent.click(screen.getByTestId('setting-NR'));
    expect(box().disabled).toBe(true);
    expect(box().checked).toBe(false);
    expect(screen.getByText(/Needs the sensitivity part with the NR setting/)).toBeTruthy();
    expect(config()).not.toHaveProperty('noiseFloor');
    fireEvent.click(screen.getByTestId('setting-NR'));
    expect(box().disabled).toBe(false);
    expect(config()).toMatchObject({ noiseFloor: true });
    fireEvent.click(screen.getByTestId('part-sensitivity'));
    expect(box().disabled).toBe(true);
    expect(config()).not.toHaveProperty('noiseFloor');
  });

  it('speaks 中文', async () => {
    await i18next.changeLanguage('zh');
    try {
      render(<GeneratorsStep />);
      expect(await screen.findByText('测量噪声底线')).toBeTruthy();
      expect(screen.getByText(/NR-NR/).textContent).toMatch(/安慰剂/);
    } finally {
      await i18next.changeLanguage('en');
    }
  });
});
