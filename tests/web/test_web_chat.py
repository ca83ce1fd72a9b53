"""Around the table (issue 15): "Chat per match: players talk; spectators talk among themselves
(players do not see it during play). Plain text, escaped, length- and rate-limited, stored with the
match …; a player can mute the chat. A spectator link to share; … a 'your turn' sound that can be
switched off."

Real ``parlour serve``, real Chromium; every wait is for the page's state, none for time."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_process import Server
from test_web_a11y import assert_accessible, open_match
from web_helpers import WAIT_MS, Client, OpenClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

HTML_LADEN = "<img src=x onerror=alert(1)><b>hi</b>"

COUNT_AUDIO_JS = """
// The tests cannot listen: they count the AudioContexts the page makes, and say the player is on
// another page (no focus), where the tone is meant to sound.
window.parlourAudioContexts = 0;
const RealAudioContext = window.AudioContext;
window.AudioContext = class extends RealAudioContext {
  constructor(...args) { super(...args); window.parlourAudioContexts += 1; }
};
document.hasFocus = () => false;
"""


# ---- helpers ----

async def seat_page(client: Client, server: Server, match_id: str, token: str) -> None:
    """Opens the match page with the seat's token where the page looks for it."""
    await client.page.goto(server.base + "/")
    await client.page.evaluate("([id, token]) => localStorage.setItem(`parlour.token.${id}`, token)",
                               [match_id, token])
    await open_match(client, server, match_id)


async def ann_and_bob(open_client: OpenClient, server: Server,
                      **options: object) -> tuple[Client, Client, str]:
    """A LOA match with Ann in seat 0 and Bob in seat 1, both pages showing it running."""
    ann, bob = await open_client("Ann"), await open_client("Bob")
    created = server.create(game="loa", players=2, seats=["open", "open"], join=0, name="Ann",
                            options=dict(options))
    match_id = str(created["match"]["id"])
    joined = server.join(match_id, seat=1, name="Bob")
    await seat_page(ann, server, match_id, created["token"])
    await seat_page(bob, server, match_id, joined["token"])
    for client in (ann, bob):
        await client.page.wait_for_selector("body[data-status='running']", state="attached")
    return ann, bob, match_id


async def say(client: Client, text: str) -> None:
    await client.page.fill("#chat-text", text)
    await client.page.click("#chat-send")


async def shown(client: Client, text: str) -> None:
    """Until a message with exactly ``text`` is in the page's chat log."""
    await client.page.wait_for_function(
        "t => [...document.querySelectorAll('#chat-log .chat-text')].some(e => e.textContent === t)",
        arg=text, timeout=WAIT_MS)


async def chat_texts(client: Client) -> list[str]:
    texts: list[str] = await client.page.eval_on_selector_all("#chat-log .chat-text",
                                                            "es => es.map(e => e.textContent)")
    return texts


async def play_first_legal(client: Client) -> None:
    """The first action the page lists, clicked in its legal list (opened if it is not)."""
    await client.wait_my_turn()
    version = await client.version()
    first = (await client.legal())[0]
    await client.page.evaluate("document.getElementById('legal-wrap').open = true")
    await client.page.click(f"#legal button[data-action='{first}']")
    await client.wait_past(version)


async def words(client: Client, selector: str) -> str:
    return " ".join((await client.page.text_content(selector) or "").split())


# ---- chat ----

async def test_two_players_chat_and_markup_is_shown_as_the_text_it_is(server: Server,
                                                                      open_client: OpenClient) -> None:
    ann, bob, _ = await ann_and_bob(open_client, server)
    dialogs: list[str] = []
    bob.page.on("dialog", lambda dialog: dialogs.append(dialog.message))
    await bob.page.focus("#moves")  # where Bob is reading: a new message must not take him away
    await say(ann, HTML_LADEN)
    await shown(bob, HTML_LADEN)
    # Plain text: no element was made of it, nothing ran, the words are exactly what Ann typed.
    assert await bob.page.eval_on_selector_all("#chat-log img, #chat-log b", "es => es.length") == 0
    assert dialogs == []
    assert await chat_texts(bob) == [HTML_LADEN]
    assert await words(bob, "#chat-log .chat-name") == "Ann"
    assert await bob.page.evaluate("document.activeElement.id") == "moves"
    # The screen reader hears it politely, with who said it.
    assert await words(bob, "#chat-live") == f"Ann: {HTML_LADEN}"
    assert await bob.page.get_attribute("#chat-live", "aria-live") == "polite"
    await say(bob, "hello Ann")
    await shown(ann, "hello Ann")
    assert await chat_texts(ann) == [HTML_LADEN, "hello Ann"]
    assert await ann.page.input_value("#chat-text") == ""  # a sent message leaves the box
    # Stored with the match: a page opened again has the conversation.
    await ann.page.reload()
    await shown(ann, "hello Ann")
    assert await chat_texts(ann) == [HTML_LADEN, "hello Ann"]
    assert ann.errors == []
    assert bob.errors == []


async def test_the_spectators_talk_among_themselves_until_the_game_is_over(server: Server,
                                                                           open_client: OpenClient) -> None:
    ann, bob, match_id = await ann_and_bob(open_client, server, move_limit=2)  # over after two plies
    eve = await open_client("Eve")
    await open_match(eve, server, match_id)
    await eve.page.wait_for_selector("body[data-seat='spectator']", state="attached")
    assert "you talk with the other spectators" in await words(eve, "#chat-note")
    await say(eve, "who wins?")
    await shown(eve, "who wins?")
    assert await words(eve, "#chat-log .from-spectators .chat-room") == "(watching)"
    # Ann speaks after Eve's message was taken: had it been sent to Ann, it would have come first.
    await say(ann, "my move")
    await shown(ann, "my move")
    await shown(eve, "my move")  # a spectator reads the players
    await shown(bob, "my move")
    assert await chat_texts(ann) == ["my move"]
    assert await chat_texts(bob) == ["my move"]
    assert await chat_texts(eve) == ["who wins?", "my move"]
    assert "spectators' messages are shown when the game is over" in await words(ann, "#chat-note")
    await play_first_legal(ann)
    await play_first_legal(bob)
    await ann.page.wait_for_selector("body[data-status='over']", state="attached")
    # Over: the whole table's talk is public; a page opened now shows both rooms.
    await ann.page.reload()
    await shown(ann, "who wins?")
    assert await chat_texts(ann) == ["who wins?", "my move"]
    assert "The game is over" in await words(ann, "#chat-note")
    await assert_accessible(ann, "a finished match with its chat")


async def test_a_player_mutes_the_chat_and_it_stays_muted_after_a_reload(server: Server,
                                                                         open_client: OpenClient) -> None:
    ann, bob, _ = await ann_and_bob(open_client, server)
    await ann.page.set_viewport_size({"width": 390, "height": 700})  # the chat is below the board
    await ann.page.evaluate("window.scrollTo(0, 0)")
    await say(bob, "first")
    await ann.page.wait_for_selector("#chat-unread:not([hidden])")
    assert await words(ann, "#chat-unread") == "1 new"  # unseen, counted
    await ann.page.click("#chat-mute")
    assert await ann.page.is_hidden("#chat-log")
    assert await ann.page.is_hidden("#chat-unread")
    assert await ann.page.get_attribute("#chat-mute", "aria-pressed") == "true"
    await ann.page.reload()
    await ann.page.wait_for_selector("body[data-status='running']", state="attached")
    assert await ann.page.is_hidden("#chat-log")
    assert await words(ann, "#chat-muted-note") == "The chat is muted in this browser."
    await ann.page.evaluate("window.scrollTo(0, 0)")
    await ann.page.evaluate("document.getElementById('chat-live').textContent = ''")
    await say(bob, "second")
    await shown(ann, "second")  # kept, not shown: the log is hidden
    assert await ann.page.is_hidden("#chat-log")
    assert await ann.page.get_attribute("#chat", "data-unread") == "0"  # no count
    assert await words(ann, "#chat-live") == ""                       # and nothing read out
    await ann.page.click("#chat-mute")
    assert await ann.page.is_visible("#chat-log")
    assert await chat_texts(ann) == ["first", "second"]
    assert await ann.page.evaluate("localStorage.getItem('parlour.chat.muted')") is None


async def test_a_message_too_long_or_not_plain_text_is_refused_in_words_and_kept(
        server: Server, open_client: OpenClient) -> None:
    ann, bob, _ = await ann_and_bob(open_client, server)
    long = "a" * 501
    await ann.page.fill("#chat-text", long)
    assert await words(ann, "#chat-count") == "501 / 500"
    assert "over" in (await ann.page.get_attribute("#chat-count", "class") or "")
    await ann.page.click("#chat-send")
    assert await words(ann, "#chat-error") == "A message has at most 500 characters; this one has 501."
    assert await ann.page.input_value("#chat-text") == long  # nothing lost
    # A control character: the server says no (bad_chat), the page says why and gives the text back.
    await say(ann, "ring \u0007 ring")
    await ann.page.wait_for_function("document.getElementById('chat-error').textContent.startsWith("
                                     "'The message was not sent:')")
    assert await ann.page.input_value("#chat-text") == "ring \u0007 ring"
    await say(ann, "   ")
    assert await words(ann, "#chat-error") == "Write something first."
    await say(ann, "fine now")
    await shown(bob, "fine now")
    assert await words(ann, "#chat-error") == ""
    assert await chat_texts(bob) == ["fine now"]


@pytest.fixture(scope="module")
def strict_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose chat allows two messages at once and one a minute after them."""
    limits: dict[str, float] = {"chat_burst": 2, "chat_per_minute": 1}
    running = Server(tmp_path_factory.mktemp("chat-strict"), limits=limits).start()
    yield running
    running.stop()


async def test_too_many_messages_are_refused_with_when_to_try_again(strict_server: Server,
                                                                    open_client: OpenClient) -> None:
    ann, bob, _ = await ann_and_bob(open_client, strict_server)
    for text in ("one", "two"):
        await say(ann, text)
        await shown(bob, text)
    await say(ann, "three")
    await ann.page.wait_for_function(
        "document.getElementById('chat-error').textContent.startsWith('Too many')")
    said = await words(ann, "#chat-error")
    assert said.startswith("Too many messages at once: this one was not sent. Wait "), said
    assert await ann.page.input_value("#chat-text") == "three"
    assert await chat_texts(ann) == ["one", "two"]


# ---- a reconnection keeps a finished match's whole conversation ----

SOCKETS_JS = """
// The test drops the page's connection as a network would: it keeps the page's sockets, and counts
// the states the page has handled (after the page's own listener, which runs first on the event).
window.parlourSockets = [];
window.parlourStates = 0;
const RealWebSocket = window.WebSocket;
window.WebSocket = class extends RealWebSocket {
  constructor(...args) {
    super(...args);
    window.parlourSockets.push(this);
    this.addEventListener("message", (event) => {
      if (JSON.parse(event.data).type === "state") setTimeout(() => { window.parlourStates += 1; }, 0);
    });
  }
};
"""

STATE_CARRIES = 100  # a state carries the last 100 messages (docs/protocol.md, "chat")


@pytest.fixture(scope="module")
def chatty_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose chat lets one page say more than a state carries, at once."""
    limits: dict[str, float] = {"chat_burst": 1000, "chat_per_minute": 1000}
    running = Server(tmp_path_factory.mktemp("chat-chatty"), limits=limits).start()
    yield running
    running.stop()


async def test_a_reconnection_keeps_the_older_messages_of_a_finished_match(
        chatty_server: Server, open_client: OpenClient) -> None:
    # More messages than a state carries: once over, the page asks for all of them; a connection
    # made again after that brings a state with only the last ones, which must not replace them.
    ann, bob, _ = await ann_and_bob(open_client, chatty_server, move_limit=2)
    await ann.context.add_init_script(SOCKETS_JS)
    await ann.page.reload()
    await ann.page.wait_for_function("window.parlourStates >= 1", timeout=WAIT_MS)
    said = [f"message {n}" for n in range(STATE_CARRIES + 5)]
    await ann.page.evaluate("""texts => {
      for (const text of texts) {
        document.getElementById('chat-text').value = text;
        document.getElementById('chat-form').requestSubmit();
      }
    }""", said)
    await shown(bob, said[-1])
    await play_first_legal(ann)
    await play_first_legal(bob)
    await ann.page.wait_for_selector("body[data-status='over']", state="attached")
    await ann.page.wait_for_function(
        "n => document.querySelectorAll('#chat-log .chat-text').length === n", arg=len(said), timeout=WAIT_MS)
    # The connection drops; the page connects again on its own and is sent a state.
    await ann.page.evaluate("window.parlourSockets.at(-1).close()")
    await ann.page.wait_for_function("window.parlourSockets.length === 2 && window.parlourStates >= 2",
                                     timeout=WAIT_MS)
    assert await chat_texts(ann) == said
    assert ann.errors == []


# ---- the link for spectators ----

async def test_the_link_for_spectators_opens_the_match_to_watch(server: Server,
                                                                open_client: OpenClient) -> None:
    ann, _, match_id = await ann_and_bob(open_client, server)
    link = await ann.page.input_value("#share-link")
    assert link == f"{server.base}/match/{match_id}"
    await ann.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
    await ann.page.click("#share-copy")
    await ann.page.wait_for_selector("#toast:not([hidden])")
    assert await words(ann, "#toast") == "Link copied."
    assert await ann.page.evaluate("navigator.clipboard.readText()") == link
    eve = await open_client("Eve")
    await eve.page.goto(link)
    await eve.page.wait_for_selector("body[data-seat='spectator'][data-status='running']", state="attached")
    assert await eve.page.is_visible("#share-link")
    assert await eve.page.is_hidden("#sound-switch")  # a spectator has no turn to be told of
    assert "You are watching" in await words(eve, "#chat-note")


# ---- the your-turn sound ----

async def test_the_turn_sound_plays_when_on_and_makes_no_audio_at_all_when_switched_off(
        server: Server, open_client: OpenClient, tmp_path: Path) -> None:
    ann = await open_client("Ann")
    await ann.context.add_init_script(COUNT_AUDIO_JS)
    created = server.create(game="loa", players=2, seats=["open", "bot:random"], join=0, name="Ann",
                            bot_seconds=0.05)
    match_id = str(created["match"]["id"])
    await seat_page(ann, server, match_id, created["token"])
    await ann.wait_my_turn()
    assert await ann.page.is_checked("#sound-on")  # on unless switched off
    assert await ann.page.evaluate("window.parlourAudioContexts") == 0  # the page opened at her turn: no news
    await play_first_legal(ann)
    # The bot moved: her turn came again, and the page was not in front.
    await ann.page.wait_for_selector("body[data-turn-tones='1']", state="attached")
    assert await ann.page.evaluate("window.parlourAudioContexts") == 1
    await ann.page.uncheck("#sound-on")
    await ann.page.reload()
    await ann.wait_my_turn()
    assert not await ann.page.is_checked("#sound-on")
    for _ in range(2):
        await play_first_legal(ann)
        await ann.wait_my_turn()
    assert await ann.page.get_attribute("body", "data-turn-tones") is None
    assert await ann.page.evaluate("window.parlourAudioContexts") == 0
    await ann.page.screenshot(path=str(tmp_path / "sound-off.png"))
    assert ann.errors == []
