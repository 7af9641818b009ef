#!/usr/bin/env python3
"""Writes resources/samples/llmbar-demo.jsonl: 20 items of the bundled LLMBar sample, four from
each subset at evenly spaced positions, so the keyless demo ("Try it without API keys") shows
every kind of pair in about a minute. Deterministic; rerun after changing the sample."""
import json
from pathlib import Path

PER_SUBSET = 4
root = Path(__file__).resolve().parent.parent / "resources" / "samples"
rows = [json.loads(line) for line in (root / "llmbar.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
subsets = list(dict.fromkeys(r["subset"] for r in rows))
picked = []
for s in subsets:
    group = [r for r in rows if r["subset"] == s]
    step = len(group) / PER_SUBSET
    picked += [group[int(i * step + step / 2)] for i in range(PER_SUBSET)]
with (root / "llmbar-demo.jsonl").open("w", encoding="utf-8") as f:
    for r in picked:
        f.write(json.dumps(r, ensure_ascii=False) + "\n")
print(f"{len(picked)} items from {', '.join(subsets)}")
