// @ts-check
// The player's settings on this browser: the theme (the system's, light or dark) and
// the sounds (on or off), each with a switch in the page's header, kept in
// localStorage. The sounds are made here with the Web Audio API (no sound files).

const THEMES = ["system", "light", "dark"];
const THEME_WORDS = { system: "Theme: system", light: "Theme: light", dark: "Theme: dark" };

/** @param {string} key @param {string} fallback */
function stored(key, fallback) {
  try {
    return localStorage.getItem(key) ?? fallback;
  } catch {
    return fallback; // storage refused (a private window): the defaults
  }
}

/** @param {string} key @param {string} value */
function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // not kept beyond this page: nothing else to do
  }
}

/** The theme chosen: "system", "light" or "dark". */
export function theme() {
  const chosen = stored("parlour-theme", "system");
  return THEMES.includes(chosen) ? chosen : "system";
}

/** Show the chosen theme: the root's data-theme (none: the system's choice). */
export function applyTheme() {
  const chosen = theme();
  if (chosen === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = chosen;
}

/** Whether sounds are on (they are unless switched off). */
export function soundOn() {
  return stored("parlour-sound", "on") !== "off";
}

/**
 * Put the theme and sound switches in ``header`` (the page's top bar).
 * @param {Element | null} header
 */
export function addSwitches(header) {
  applyTheme();
  if (!header || header.querySelector(".switches")) return;
  const box = document.createElement("div");
  box.className = "switches";
  const themeButton = document.createElement("button");
  themeButton.type = "button";
  themeButton.dataset.testid = "theme-switch";
  themeButton.title = "Change the colours: as the system says, light or dark";
  const showTheme = () => { themeButton.textContent = THEME_WORDS[theme()]; };
  themeButton.addEventListener("click", () => {
    store("parlour-theme", THEMES[(THEMES.indexOf(theme()) + 1) % THEMES.length]);
    applyTheme();
    showTheme();
  });
  showTheme();
  const soundButton = document.createElement("button");
  soundButton.type = "button";
  soundButton.dataset.testid = "sound-switch";
  const showSound = () => {
    soundButton.textContent = soundOn() ? "Sound: on" : "Sound: off";
    soundButton.setAttribute("aria-pressed", String(soundOn()));
  };
  soundButton.addEventListener("click", () => {
    store("parlour-sound", soundOn() ? "off" : "on");
    showSound();
  });
  showSound();
  box.append(soundButton, themeButton);
  header.append(box);
}

/** @type {AudioContext | null} */
let audio = null;

/**
 * The notes of each sound: [frequency Hz, start s, length s, kind of wave, loudness].
 * @type {Record<string, [number, number, number, OscillatorType, number][]>}
 */
const SOUNDS = {
  move: [[520, 0, 0.07, "triangle", 0.25]],
  capture: [[330, 0, 0.05, "square", 0.12], [220, 0.04, 0.09, "triangle", 0.3]],
  check: [[660, 0, 0.09, "triangle", 0.25], [880, 0.1, 0.12, "triangle", 0.25]],
  dice: [[900, 0, 0.03, "square", 0.08], [700, 0.05, 0.03, "square", 0.08], [1100, 0.1, 0.03, "square", 0.08], [800, 0.15, 0.04, "square", 0.08]],
  end: [[523, 0, 0.18, "sine", 0.25], [659, 0.15, 0.18, "sine", 0.25], [784, 0.3, 0.35, "sine", 0.25]],
};

/**
 * Play a sound of ``kind`` (move, capture, check, dice, end) if sounds are on. The
 * body's data-sound names the last one played (what the tests read).
 * @param {string} kind
 */
export function playSound(kind) {
  if (!soundOn() || !SOUNDS[kind]) return;
  document.body.dataset.sound = kind;
  document.body.dataset.sounds = String((Number(document.body.dataset.sounds) || 0) + 1);
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const now = audio.currentTime;
    for (const [frequency, start, length, wave, loudness] of SOUNDS[kind]) {
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.type = wave;
      tone.frequency.value = frequency;
      volume.gain.setValueAtTime(loudness, now + start);
      volume.gain.exponentialRampToValueAtTime(0.001, now + start + length);
      tone.connect(volume).connect(audio.destination);
      tone.start(now + start);
      tone.stop(now + start + length + 0.02);
    }
  } catch {
    // no audio on this device: the game goes on in silence
  }
}
