import { type Drawing, drawingById } from './catalog.js';
import { SETS } from './generated/catalog.js';

/** game-icons.net authors: the repository's folder names and the names its license.txt gives them. */
const AUTHOR_NAMES: Readonly<Record<string, string>> = {
  lorc: 'Lorc',
  delapouite: 'Delapouite',
  'john-colburn': 'John Colburn',
  felbrigg: 'Felbrigg',
  'john-redman': 'John Redman',
  'carl-olsen': 'Carl Olsen',
  sbed: 'Sbed',
  priorblue: 'PriorBlue',
  willdabeast: 'Willdabeast',
  'viscious-speed': 'Viscious Speed',
  'lord-berandas': 'Lord Berandas',
  irongamer: 'Irongamer',
  'heavenly-dog': 'HeavenlyDog',
  lucasms: 'Lucas',
  faithtoken: 'Faithtoken',
  skoll: 'Skoll',
  andymeneely: 'Andy Meneely',
  cathelineau: 'Cathelineau',
  'kier-heyl': 'Kier Heyl',
  aussiesim: 'Aussiesim',
  sparker: 'Sparker',
  zeromancer: 'Zeromancer',
  rihlsul: 'Rihlsul',
  quoting: 'Quoting',
  guard13007: 'Guard13007',
  darkzaitzev: 'DarkZaitzev',
  spencerdub: 'SpencerDub',
  generalace135: 'GeneralAce135',
  zajkonur: 'Zajkonur',
  catsu: 'Catsu',
  starseeker: 'Starseeker',
  'pepijn-poolman': 'Pepijn Poolman',
  'pierre-leducq': 'Pierre Leducq',
  'caro-asercion': 'Caro Asercion',
  seregacthtuf: 'SeregaCthtuf',
  badges: 'Delapouite',
  'various-artists': 'various artists',
};
/** Public domain (CC0) per game-icons' license.txt. */
const CC0_AUTHORS = new Set(['viscious-speed', 'zeromancer']);

/** Where a drawing comes from and what its licence asks for; goes into `metadata.provenance`. */
export interface DrawingProvenance {
  /** The drawing's id in the catalog (`f/dog`). */
  drawing: string;
  /** Its name in the Iconify set, and the set's Iconify prefix. */
  name: string;
  set: string;
  /** The set as its authors name it ("Fluent Emoji Flat") and the npm version it was read from. */
  setName: string;
  version: string;
  /** SPDX identifier of the drawing's licence (MIT, Apache-2.0, CC-BY-3.0, CC0-1.0). */
  license: string;
  licenseUrl: string;
  /** Who made it. */
  author: string;
  /** The credit the licence asks for, to show with the asset (CC BY: "Icons made by …"). */
  attribution: string;
  /** The drawing was changed: pixelized, recoloured, posed. */
  modified: true;
  /** A composite: the provenance of each drawing it is made of. */
  parts?: DrawingProvenance[];
}

export function provenanceOf(d: Drawing): DrawingProvenance {
  if (d.parts) {
    const seen = new Set<string>();
    const parts: DrawingProvenance[] = [];
    for (const part of d.parts) {
      if (!part.id || seen.has(part.id)) continue;
      seen.add(part.id);
      const p = drawingById(part.id);
      if (p) parts.push(provenanceOf(p));
    }
    const licenses = [...new Set(parts.map((p) => p.license))];
    return {
      drawing: d.id,
      name: d.name,
      set: d.set,
      setName: 'Assetloom composites',
      version: '1',
      license: licenses.join(' AND '),
      licenseUrl: parts[0]?.licenseUrl ?? '',
      author: `Assetloom, composed of ${parts.map((p) => `"${p.name}" (${p.setName})`).join(', ')}`,
      attribution: parts.map((p) => p.attribution).join('; '),
      modified: true,
      parts,
    };
  }
  const set = SETS.find((s) => s.prefix === d.set)!;
  if (d.set === 'game-icons') {
    const author = d.author ? (AUTHOR_NAMES[d.author] ?? d.author) : 'game-icons.net';
    const cc0 = d.author !== undefined && CC0_AUTHORS.has(d.author);
    return {
      drawing: d.id,
      name: d.name,
      set: d.set,
      setName: set.name,
      version: set.version,
      license: cc0 ? 'CC0-1.0' : 'CC-BY-3.0',
      licenseUrl: cc0
        ? 'https://creativecommons.org/publicdomain/zero/1.0/'
        : 'https://creativecommons.org/licenses/by/3.0/',
      author,
      attribution: cc0
        ? `"${d.label}" by ${author}, game-icons.net (CC0 1.0); pixelized and recoloured by Assetloom`
        : `Icons made by ${author}, game-icons.net: "${d.label}", CC BY 3.0 (https://creativecommons.org/licenses/by/3.0/); pixelized and recoloured by Assetloom`,
      modified: true,
    };
  }
  return {
    drawing: d.id,
    name: d.name,
    set: d.set,
    setName: set.name,
    version: set.version,
    license: set.license,
    licenseUrl: set.licenseUrl,
    author: set.author,
    attribution: `"${d.label}" from ${set.name} by ${set.author} (${set.license}, ${set.url}); pixelized by Assetloom`,
    modified: true,
  };
}
