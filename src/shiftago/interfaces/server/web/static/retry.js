// Trying a dropped socket again (the game's, the lobby's, the analysis board's): waits
// that start short and double up to 5 s, each drawn a little longer or shorter so that
// the pages of a restarted server do not all come back at one moment. A page shown
// again, or a network that comes back, tries at once instead of at the end of its
// wait: a phone's player who returns to the page sees it live without waiting seconds.

const LONGEST_WAIT_MS = 5000;

export class Retry {
  /** `connect` opens the socket again; `first` is the first wait, in milliseconds. */
  constructor(connect, first) {
    this.connect = connect;
    this.first = first;
    this.wait = first;
    this.timer = null; // set while a try waits
    this.hurry = () => {
      if (this.timer === null || document.hidden) return;
      clearTimeout(this.timer);
      this.timer = null;
      this.connect();
    };
    window.addEventListener("online", this.hurry);
    document.addEventListener("visibilitychange", this.hurry);
  }

  /** The socket is open: the next drop waits the shortest again. */
  opened() {
    this.wait = this.first;
  }

  /** The socket dropped: try again after the wait, and wait longer the time after. */
  later() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, this.wait * (0.8 + 0.4 * Math.random()));
    this.wait = Math.min(this.wait * 2, LONGEST_WAIT_MS);
  }

  /** No more tries: the page has closed the socket. */
  stop() {
    clearTimeout(this.timer);
    this.timer = null;
    window.removeEventListener("online", this.hurry);
    document.removeEventListener("visibilitychange", this.hurry);
  }
}
