import { interpret } from '@assetloom/pipeline/interpret';
for (const p of ['a viking warrior', 'a barbarian warrior', 'a viking raider', 'a knight warrior'])
  { const it = interpret({ assetType: 'sprite', userPrompt: p, tags: [], style: {} }); console.log(p, JSON.stringify({s: it.subject, l: it.lemma, k: it.kind, m: it.modifiers, u: it.understood, i: it.ignored})); }
