// Issue 40 item 12: a gate needs a finished measurement (a run paused part-way is shown but says
// "incomplete", never passes), and a card mixes only like provenance: recorded answers (real
// judgments made elsewhere) never join a simulated model's card of made-up ones.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { cardSpeaker } from '../../src/shared/report-card/phrases';
import { tempDir } from '../helpers/tmp';

const SIM = { sim: { kind: 'simulated', latencyMs: 20, rpm: 60000, concurrency: 1 } };
const study = (name: string) => ({
  name,
  protocol: 'judge-ls',
  dataset: 'LLMBar (sample)',
  limit: 12,
  transform: { provider: 'sim', model: 'sim-translator', languages: ['ZH'] },
  judges: [{ label: 'Strong', provider: 'sim', model: 'sim-judge-strong' }],
});
// Every gate set so that any value passes it: only the run's state can keep it from passing.
const OPEN_GATES = {
  position_consistency: { threshold: 0 },
  language_flip: { threshold: 1 },
  length_effect: { threshold: 100 },
  human_rho: { threshold: -1 },
  self_disagreement: { threshold: 1 },
};

let dir: string;
let cleanup: () => void;
let core: Core;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  core = new Core({
    dataDir: join(dir, 'data'),
    door: 'cli',
    keys: new EnvOnlyKeyStore({}),
    engine: { progressIntervalMs: 50 },
  });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
}, 120_000);

afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

describe('report card gates and provenance', () => {
  it('a run paused part-way makes its gates "incomplete", not passed; finished, they pass', async () => {
    const { id } = await core.call('experiments.create', { config: { providers: SIM, ...study('paused') } });
    let asked = false;
    const off = core.on('run.progress', (p) => {
      const done = Object.values(p.phases).reduce((n, g) => n + g.done, 0);
      if (p.experimentId === id && done > 0 && !asked) {
        asked = true;
        void core.call('experiments.interrupt', { experimentId: id });
      }
    });
    await core.experiments.runToEnd(id);
    off();
    // Interrupted as Ctrl+C does: the run is kept, shown paused.
    expect((await core.call('experiments.progress', { experimentId: id })).status).toBe('paused');
    const card = await core.call('judges.reportCard', {
      model: 'simulated:sim-judge-strong',
      gates: OPEN_GATES,
    });
    const position = card.gates.find((g) => g.definition.id === 'position_consistency')!;
    expect(position.checks.length).toBeGreaterThan(0);
    expect(position.status).toBe('incomplete');
    const { counts } = await core.call('experiments.results', { experimentId: id });
    expect(counts.ok + counts.failed).toBeLessThan(counts.planned);
    for (const c of position.checks) {
      expect(c.status).toBe('incomplete');
      expect(c.reason).toEqual({
        key: 'run_incomplete',
        params: { answered: String(counts.ok + counts.failed), planned: String(counts.planned) },
      });
    }
    expect(cardSpeaker('en').phrase(position.checks[0].reason!, 'judge-ls')).toBe(
      `the run has not finished (${counts.ok + counts.failed} of ${counts.planned} calls answered)`,
    );
    expect(cardSpeaker('zh').phrase(position.checks[0].reason!, 'judge-ls')).toMatch(/^运行尚未完成/);

    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const done = await core.call('judges.reportCard', {
      model: 'simulated:sim-judge-strong',
      gates: OPEN_GATES,
    });
    expect(done.gates.find((g) => g.definition.id === 'position_consistency')!.status).toBe('pass');
  }, 300_000);

  it("recorded answers of the same model id never join the simulated model's card", async () => {
    const live = await core.call('experiments.create', {
      config: { providers: SIM, ...study('sim-source') },
    });
    expect((await core.experiments.runToEnd(live.id)).status).toBe('finished');
    const answers = await core.call('experiments.exportAnswers', { experimentId: live.id, format: 'jsonl' });
    const file = join(dir, 'answers.jsonl');
    writeFileSync(file, answers.text);
    const rec = await core.call('experiments.create', {
      config: { ...study('from-file'), providers: { sim: { kind: 'recorded', file } } },
    });
    expect((await core.experiments.runToEnd(rec.id)).status).toBe('finished');

    const card = await core.call('judges.reportCard', { model: 'simulated:sim-judge-strong' });
    expect(card.experiments.map((e) => e.name)).not.toContain('from-file');
    expect(card.experiments.every((e) => e.simulated && !e.recorded)).toBe(true);
    const judges = await core.call('judges.list', undefined);
    expect(judges.find((j) => j.key === 'recorded:sim-judge-strong')).toMatchObject({
      experiments: 1,
      recorded: true,
    });
    expect(judges.find((j) => j.key === 'simulated:sim-judge-strong')).toMatchObject({ recorded: false });
    const recorded = await core.call('judges.reportCard', { model: 'recorded:sim-judge-strong' });
    expect(recorded.experiments.map((e) => e.name)).toEqual(['from-file']);
  }, 300_000);
});
