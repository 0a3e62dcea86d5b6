import { kindOf, nounLemma } from './src/interpret/index.js';

for (const w of [
  'red',
  'blue',
  'orange',
  'chocolate',
  'salmon',
  'olive',
  'gold',
  'silver',
  'ruby',
  'lime',
  'coral',
  'navy',
  'white',
])
  console.log(w, nounLemma(w), kindOf(w)?.kind);
