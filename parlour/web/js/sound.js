// The "your turn" tone: a short chime made with the Web Audio API (no sound files), switched on or
// off per browser. It sounds only when the page is not in front of the player (another tab, another
// window): someone looking at the page sees the banner turn, and a tone at every one of their moves
// against a quick bot would be noise. The AudioContext is made at the first tone, never before, so a
// player who switched the sound off never has one.

const KEY = "parlour.sound";

/** Whether the tone is on in this browser (it is unless the player switched it off). */
export function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

export function setSoundOn(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

/** Whether the player is away from the page: its tab hidden, or its window without the focus. */
function away() {
  return document.visibilityState === "hidden" || !document.hasFocus();
}

export class TurnSound {
  constructor() {
    this.audio = null;     // made at the first tone
    this.wasMine = null;   // null until the first position: opening a page at one's turn is no news
    this.played = 0;       // how many tones, for the tests (they cannot listen)
  }

  /** Told at each redraw whether it is this seat's turn; a turn that has just come sounds the tone. */
  notice(mine) {
    const came = this.wasMine === false && mine;
    this.wasMine = mine;
    if (came && soundOn() && away()) this.play();
  }

  /** Two soft notes, a fifth apart, a quarter of a second in all. */
  play() {
    const Context = window.AudioContext ?? window.webkitAudioContext;
    if (!Context) return;
    this.audio ??= new Context();
    const audio = this.audio;
    // A page the player has not touched yet may keep its audio suspended (autoplay policy): it then
    // stays silent, which is all that can be done.
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const start = audio.currentTime + 0.02;
    [[660, 0], [990, 0.12]].forEach(([pitch, delay]) => {
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = pitch;
      volume.gain.setValueAtTime(0.0001, start + delay);
      volume.gain.exponentialRampToValueAtTime(0.18, start + delay + 0.015);
      volume.gain.exponentialRampToValueAtTime(0.0001, start + delay + 0.14);
      tone.connect(volume).connect(audio.destination);
      tone.start(start + delay);
      tone.stop(start + delay + 0.16);
    });
    this.played += 1;
    document.body.dataset.turnTones = String(this.played);
  }
}
