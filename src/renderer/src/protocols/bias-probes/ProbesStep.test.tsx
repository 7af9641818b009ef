// @vitest-environment jsdom
// The wizard's probes step edits the protocol's own draft: pairwise hides the scale and rubric,
// turning length and format off hides the rewriter, and the config follows.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18next } from '../../i18n';
import { useWizard } from '../../stores/wizard';
import { biasConfig } from './draft';
import '../index';
import { ProbesStep } from './ProbesStep';

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
});
