"""Nothing private leaves the conversation: secrets are never stored, and what a person
marks <private> is never written, never read for a memory and never sent to an LLM."""

from __future__ import annotations

import json

import pytest
from chat_server import ChatServer
from conftest import tree_digest

import vault_memory as vmem
from vault_memory.conversation import LLMSettings, ingest
from vault_memory.errors import SecretRefused
from vault_memory.vault.secrets import LEFT_OUT, find_secret, masked, without_private

SECRETS = {
    "My AWS access key is AKIAIOSFODNN7EXAMPLE": "an AWS access key",
    "aws secret key: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY": "an AWS secret key",
    "my token is ghp_" + "a1" * 18: "a GitHub token",
    "use sk-ant-api03-" + "x" * 30: "an Anthropic API key",
    "OPENAI_API_KEY=sk-proj-abcdEFGH1234ijklMNOP5678": "an OpenAI API key",
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA": "a private key",
    "my wifi password is Tr0ub4dor&3": "a password or a code",
    "la contraseña del banco es gatito123": "a password or a code",
    "my PIN is 4312": "a password or a code",
    "card 4111 1111 1111 1111, expires 12/27": "a payment card number",
    "xoxb-123456789012-abcdefghij": "a Slack token",
    "DATABASE_URL=postgres://app:s3cr3t@db.example.com:5432/prod": "a connection string with a password",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U": "a JSON web token",
}
HARMLESS = [
    "The user's sister is called Ana",
    "la clave es la paciencia",
    "I forgot my password yesterday",
    "the password is stored in 1Password",
    "My phone is +34 600 123 456",
    "Order number 1234567890123 arrived",
    "https://cdn.example.com/files/87613523_2854559627994666_1775718911015124992_n.jpg",
    "The user prefers sk-learn-compatible-pipeline-steps",
    "I use AWS at work and keep secrets in a vault",
    "the docs are at https://example.com:8080/path and mailto:ana@example.com",
]


@pytest.fixture
def mem(empty_vault_dir, embedder):
    with vmem.open(empty_vault_dir, embedder=embedder, use_daemon=False) as m:
        yield m


@pytest.mark.parametrize(("text", "kind"), SECRETS.items())
def test_each_kind_of_secret_is_found(text, kind):
    assert find_secret(text) == kind


@pytest.mark.parametrize("text", HARMLESS)
def test_what_only_looks_near_a_secret_is_not_one(text):
    assert find_secret(text) is None


def test_private_spans_are_cut_out():
    assert (
        without_private("locker in hall B <private>code 4312</private> on the left") == "locker in hall B on the left"
    )
    assert without_private("nothing <PRIVATE>to the end") == "nothing"
    assert without_private("no tags here") == "no tags here"


def test_remember_refuses_a_secret_and_writes_nothing(cli, vault_dir):
    """`vmem remember "My AWS access key is AKIA…"` stored the key in plain Markdown, in a
    folder that is often a git repository pushed somewhere."""
    before = tree_digest(vault_dir)
    done = cli("remember", "My AWS access key is AKIAIOSFODNN7EXAMPLE and the secret is in 1Password")
    assert done.exit_code == 2 and "an AWS access key" in done.stderr and "<private>" in done.stderr
    assert tree_digest(vault_dir) == before
    with vmem.open(vault_dir, use_daemon=False) as mem, pytest.raises(SecretRefused):
        mem.remember("github: ghp_" + "a1" * 18)


def test_ingest_names_a_refused_secrets_kind_and_turn_never_its_value_and_dry_run_agrees(cli, vault_dir, tmp_path):
    """Issue 59: ingest's warning quoted the refused text (a card number, in full), and the
    SessionEnd hook appends ingest's output to a log; `--dry-run` listed a token fact as
    "would write" that the run refused, value and all. Other words than the report's."""
    said = tmp_path / "chat.txt"
    said.write_text(
        "User: please remember that the gate code at my parents' place is 4477#\n"
        "Assistant: Noted.\n"
        "User: and remember that my pypi token is pypi-AgEIcHlwaS5vcmcCJGNhZmUtYmFiZS0xMjM0LTU2Nzg5MGFiY2RlZgAC\n"
        "Assistant: Sure.\n"
    )
    dry = cli("ingest", str(said), "--dry-run")
    run = cli("ingest", str(said))
    for done in (dry, run):
        shown = done.stdout + done.stderr
        assert done.exit_code == 0 and "4477" not in shown and "pypi-AgE" not in shown, shown
        assert "(turn 1)" in shown and "(turn 3)" in shown and "would write" not in shown
    assert "would not write (turn 3)" in dry.stderr and "not written (turn 3)" in run.stderr
    assert not any("4477" in p.read_text() for p in vault_dir.rglob("*.md"))


def test_a_request_not_kept_or_a_fact_not_written_is_never_quoted_with_its_secret(cli, vault_dir, tmp_path):
    """Attack on issue 59's fix: a request declined as a to-do was quoted as said ("remember
    to use the password … when you log in"), and a model's fact refused for a control
    character was cut to 60 characters before it was masked, so a cut secret no longer read
    as one and was shown. Other words than the attack's."""
    from vault_memory.conversation.ingestion import _refused
    from vault_memory.writing.rules import Remembering

    said = tmp_path / "todo.txt"
    said.write_text(
        "User: remember to type the passphrase Lantern-Otter-7 when the vpn asks\n"
        "User: lembra de pagar com o cartão 5555 5555 5555 4444 amanhã\n"
        "User: remember to fix the flaky test in the parser\n"
    )
    done = cli("ingest", str(said), "--dry-run", "--json")
    shown = done.stdout + done.stderr
    assert "Lantern-Otter" not in shown and "5555 5555" not in shown, shown
    assert "flaky test" in shown  # what holds no secret is still named as said
    long = "The user's broker is amqp://ops:Kestrel9Kestrel9Kestrel9@mq.internal:5672 for jobs\x01"
    note = _refused(Remembering(long, fields={"turn": 4}))
    assert note is not None and "Kestrel9" not in note and "(turn 4)" in note


def test_a_private_span_is_never_written(cli, vault_dir):
    done = cli("remember", "The user's locker is in hall B <private>and its code is 4312</private>", "--json")
    assert done.exit_code == 0, done.stderr
    written = (vault_dir / json.loads(done.stdout)["path"]).read_text()
    assert "hall B" in written and "4312" not in written and "private" not in written


def test_an_import_line_holding_a_secret_is_refused(tmp_path):
    mem = vmem.init(tmp_path / "v", examples=False)
    lines = [json.dumps({"id": "ok", "text": "Likes tea"}), json.dumps({"id": "key", "text": "PIN: 9911"})]
    report = mem.import_(lines, source="dump.jsonl")
    assert report.counts["added"] == 1 and report.counts["error"] == 1
    assert "a password" in report.records[1]["error"] and not list(tmp_path.rglob("key.md"))


def test_ingest_keeps_secrets_and_private_spans_out_of_memories_and_out_of_the_llm(mem):
    """A user turn that states a secret yields no fact (the report says why); what the user
    marked <private> is neither read for a fact nor sent to the LLM."""
    server = ChatServer()
    try:
        server.reply = json.dumps({"facts": [], "episodes": [], "summary": None})
        transcript = "\n".join(
            json.dumps(turn)
            for turn in [
                {"role": "user", "content": "Remember that my github token is ghp_" + "a1" * 18},
                {"role": "assistant", "content": "I will not keep that."},
                {"role": "user", "content": "Remember that I live in Porto. <private>My PIN is 4312</private>"},
                {"role": "assistant", "content": "Noted."},
            ]
        )
        report = ingest(mem, transcript, llm=LLMSettings(url=server.url, model="m", timeout=5, retries=0))
        sent = json.dumps(server.requests)
    finally:
        server.close()
    texts = [m.text for m in mem.list()]
    assert texts == ["The user lives in Porto"]
    assert any("a GitHub token" in note for note in report.notes)
    assert "4312" not in sent and "Porto" in sent
    assert not any("4312" in p.read_text(errors="replace") for p in mem.root.rglob("*") if p.is_file())


def test_allow_secret_stores_what_the_user_insists_on(cli, vault_dir):
    done = cli("remember", "The garage door PIN is 4312", "--allow-secret", "--json")
    assert done.exit_code == 0, done.stderr
    assert "4312" in (vault_dir / json.loads(done.stdout)["path"]).read_text()


def test_every_other_write_path_refuses_a_secret(mem):
    """The prompt hook's "remember that…" (what the daemon writes before it recalls), a
    model's facts at ingest, and the MCP and memory tools (tested with their SDKs) all go
    through the one check; a secret among several facts leaves the others written."""
    from vault_memory.conversation import remember_said

    outcomes = remember_said(mem, "Remember that I live in Porto. Also remember that my PIN is 4312.")
    assert [o.memory.text for o in outcomes] == ["The user lives in Porto"]
    assert any("a password" in w for w in mem.vault.warnings) and not any("4312" in w for w in mem.vault.warnings)

    server = ChatServer()
    try:
        facts = [
            {"text": "The user's API key is sk-proj-abcdEFGH1234ijklMNOP5678", "confidence": "high", "turn": 1},
            {"text": "The user likes hiking", "confidence": "high", "turn": 1},
        ]
        server.reply = json.dumps({"facts": facts, "episodes": [], "summary": None})
        transcript = "User: I like hiking, and here is my key for the script.\nAssistant: Thanks."
        report = ingest(mem, transcript, llm=LLMSettings(url=server.url, model="m", timeout=5, retries=0))
    finally:
        server.close()
    assert [w.text for w in report.written if w.source == "inferred"] == ["The user likes hiking"]
    assert any("an OpenAI API key" in note for note in report.notes)
    assert not any("sk-proj" in p.read_text(errors="replace") for p in mem.root.rglob("*.md"))


def test_a_private_span_in_a_hand_written_file_never_leaves_the_vault(mem):
    """A person writes a note in their editor with a <private> span: the file keeps every
    byte and their own `show` shows it, but no block, JSON answer or index holds it, and no
    search finds it."""
    note = mem.root / "notes" / "bank.md"
    note.parent.mkdir(exist_ok=True)
    raw = "---\nid: bank\n---\n\nThe user banks with Caixa. <private>Safe deposit box 1187 at the Gràcia branch.</private>\n"
    note.write_text(raw)
    result = mem.recall("where does the user bank?")
    assert "Caixa" in result.block and "1187" not in result.block
    assert "1187" not in json.dumps(result.to_dict(), ensure_ascii=False)
    assert "1187" not in result.index
    assert not any(h.memory.id == "bank" for h in mem.recall("safe deposit box Gràcia branch", legs=("keyword",)).hits)
    assert "1187" in mem.show("bank").text and note.read_text() == raw


def test_doctor_names_a_file_that_holds_a_secret_and_changes_nothing(mem):
    """A secret written before vmem refused them, or by hand: doctor says which file and
    what to do (a note: the file is the person's)."""
    note = mem.root / "facts" / "old.md"
    note.parent.mkdir(exist_ok=True)
    note.write_text("---\nid: old\n---\n\nThe deploy key is ghp_" + "a1" * 18 + "\n")
    before = note.read_bytes()
    checkup = mem.doctor()
    assert checkup.ok and any("facts/old.md holds what looks like a GitHub token" in n for n in checkup.notes)
    assert note.read_bytes() == before


#: secrets as people type them (issue 59), none of them in the report's words
EVERYDAY_SECRETS = [
    "Remember: the passcode to my laptop is:  Lagoon#58",
    "the PIN for my debit card is now 8093",
    "guarda que la clave de mi correo es: luna.2020",
    "a senha do meu home banking é Tigre#77, não esquece",
    "the buzzer code at the new flat is 4190*",
    "Charge it to 5555 5555 5555 4444.",
    "export OPENROUTER_API_KEY=or-v1-8c0a61d9e2b34f",
    "token for the model hub: hf_Qx7KpLm2Vn9RtYw4Zs8Bc3Df6Gh1Jk5Lo0",
    "publish with npm_a8K2mQ9xL4vR7tY1wE6uI3oP5sD0fG2hJ4kZ",
    "my IBAN: GB82 WEST 1234 5698 7654 32",
    "mi DNI es 12345678Z",
    "o meu CPF é 529.982.247-25",
    # a contraction before the value, and a code told by what it opens, with no secret word
    "the wifi password's Blue-Kettle-77",
    "el portón del garaje se abre con 5190",
    "o cadeado do ginásio destrava com 3141",
    "to get through the side gate, punch in 7788",
    # the attack's misses, in other words: a code after what it opens and a colon, a code
    # "for" or "to" what it opens, digits said in groups, the verb before the thing
    "Garage keypad: 9052",
    "Portão: 5512",
    "the code to the side gate is 7310",
    "the key safe code is 6 0 6 0",
    "you unlock the padlock with 3390",
    "marca 6121 para abrir el portal",  # the code before what it opens
]

#: what reads like a code told by what it opens, and is not one
NOT_CODES = [
    "the gate opens at 06:30 on weekdays",
    "the back door opens with a hard push",
    "our office building opened in 1998",
    "I share the building with 120 other tenants",
    "a porta abre com 2 voltas da chave",
    "my password's strength meter says weak",
    # a number that counts what follows it is no code
    "The museum door opens with 800 visitors a day",
    "O portão abre com 150 carros por hora",
    "La entrada del concierto, marca 2026 en la casilla del año",
    "my password's 16 characters long",
]


@pytest.mark.parametrize("text", NOT_CODES)
def test_a_code_look_alike_is_written(mem, text):
    mem.remember(text)
    assert list(mem.root.glob("facts/*.md"))


@pytest.mark.parametrize("text", EVERYDAY_SECRETS)
def test_a_secret_as_people_type_it_is_refused(mem, text):
    with pytest.raises(SecretRefused):
        mem.remember(text)
    assert not list(mem.root.glob("facts/*.md")) and not list(mem.root.glob("notes/*.md"))


def test_a_secret_never_names_a_file_and_a_hand_written_one_is_left_out_of_recall(cli, vault_dir, tmp_path):
    """What follows a secret word never reaches a file name (`ls`, git, logs), even when the
    user insists on storing it or vmem does not read it as a secret; a person's own note
    with a password is recalled with the value left out, the file untouched."""
    insisted = cli("remember", "my bike lock code is 2468", "--allow-secret", "--json")
    plain = cli("remember", "the guest network password is taped under the fridge", "--json")
    assert insisted.exit_code == 0 and plain.exit_code == 0, (insisted.stderr, plain.stderr)
    for done, secret in ((insisted, "2468"), (plain, "fridge")):
        path = json.loads(done.stdout)["path"]
        assert secret not in path and ("code" in path or "password" in path), path
    note = vault_dir / "notes" / "router.md"
    note.parent.mkdir(exist_ok=True)
    note.write_text("The router admin password is Quokka!93 and it sits in the hallway\n")
    with vmem.open(vault_dir, use_daemon=False) as mem:
        block = mem.recall("where is the router?").block
    assert "hallway" in block and "Quokka" not in block and "[secret left out]" in block
    assert note.read_text().startswith("The router admin password is Quokka!93")


def test_a_private_tag_written_with_spaces_is_cut_out_too(cli, vault_dir):
    done = cli("remember", "The user's safe is behind the mirror < PRIVATE >combination 33-12-48</ private >", "--json")
    assert done.exit_code == 0, done.stderr
    written = (vault_dir / json.loads(done.stdout)["path"]).read_text()
    assert "mirror" in written and "33-12" not in written and "PRIVATE" not in written


@pytest.mark.parametrize(
    "text",
    [
        "my gmail password 887421",  # a password's word told digits alone ends its clause
        "la contraseña del router 559013, por si acaso",
        "a senha 440021 é do computador do escritório",
        "the combination lock on my gym bag is 3307",  # a thing only a code opens, said to be a number
        "la cerradura de la bodega es 8812.",
        "o cofre do quarto do hotel é 1940, anota",
        "the storage unit gate 4 code is 7c2e91",  # a number naming which gate is no part of the word
        "shed padlock by the fence = 7 1 9 3",  # a code told by what it opens, after a few words, said in ones
        "portão da garagem do prédio → 5-5-0-2, depois aperta o botão",
        "keybox next to the bins, code “2264” (don't tell the neighbours)",
        "security question for the pension site: favourite teacher → Mrs Doyle",
        "frase de recuperación del monedero: lemon crane bottle exile dwarf rhythm sorry wagon shine elbow cargo pulse",
        "netflix: sam.r@fastmail.com / Biscuits#44",
        "alerts go to https://discord.com/api/webhooks/1122334455667788990/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEfGhIj",
        "mi CURP es HEMA850312HJCRRN04",
    ],
)
def test_a_code_told_without_its_usual_words_is_a_secret(text):
    assert find_secret(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "my password 2019 was too short",  # a year
        "the safe is 100 years old",
        "my bike lock is a Kryptonite",
        "the lock on the shed is 30 cm long",
        "el candado es de latón",
        "o cofre é 40 cm de largura",
        "my ski pass: €320 for the season",  # a price is no secret
        "refund for order #4000000000000010 is on its way",  # an order's number, though it passes Luhn
        "DATABASE_URL=mysql://<user>:<password>@localhost/app",  # a placeholder
        "write to help@acme.io / 24h line",
        "the bike shed: 3 racks, by the gate",
    ],
)
def test_a_lock_or_a_password_word_beside_a_number_that_is_no_code_is_no_secret(text):
    assert find_secret(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # a value shaped like a secret a few words from what names it, whatever joins them
        "the pw for my old steam account was gamer4life99",
        "mi pass del gimnasio es pesas2023, apúntalo",
        "a senha que eu uso no portal da escola, anota: escola2021",
        "verification code from the airline: 771 620",
        "el código que me llegó por correo es 845 112",
        "o otp do banco chegou agora, 66 30 91",
        "9920 is the pin of my old phone",  # the value before its name, across a link
        "la contra del portátil del curro es Curro&Casa",  # a sign inside, no digit
        "card 4000 1234 5678 9011, the one that got declined",  # a card's number that fails Luhn
        "what was the garage code? 5120",  # the value answers the name's own question
        "qual era a senha?? Hq!2209, a da vpn",
        "the back keypad is 5591* now",
        "o cofre do escritório ficou com 7720",
        "the pin of the new sim ended up in 6620",  # a number after "in" is no place
        "my secret answer is Rover1987",
    ],
)
def test_a_secret_named_in_any_words_near_its_value_is_refused(mem, text):
    with pytest.raises(SecretRefused):
        mem.remember(text)


@pytest.mark.parametrize(
    "text",
    [
        "my zip code is 94110",
        "el código postal de mi casa es 46001",
        "o código do produto é XB-4410",
        "the password policy at work asks for 14 characters",
        "mi tarjeta del gimnasio es la 5521",  # a card's name, and no card's number
        "I keep every password in Bitwarden since 2021",
        "the token endpoint answers 403 for the staging client",  # a number before a name, no link
        "a minha chave pública do GitHub termina em AB12CD",
        "set the env var GITHUB_TOKEN_NAME before the build",
        "the room key is 305B, at the front desk",  # a short label, no secret
        "na fila do hospital a minha senha é C207",  # a queue's ticket
        "our season pass covers 2025-2026",  # a span of years
        "what's my passcode? no idea, it was set in 2019",
        "I keep the pin in Bitwarden2",  # where it is kept
        "the integration test reads token ab12c from the fixture",  # a token's value is long
    ],
)
def test_a_name_of_a_secret_beside_a_number_that_is_none_is_written(mem, text):
    mem.remember(text)
    assert list(mem.root.glob("facts/*.md"))


#: passwords of letters alone, told the ways people tell them: after the password's word and
#: "is" or a colon, set "to" one, or first in the sentence (none of the words of the sets)
WORDED_PASSWORDS = [
    "my netflix password is tangerine",
    "Password for the garage tablet: bluejay",
    "the shared drive's passphrase is quietriver, tell nobody",
    "I set the router password to Hummingbird",
    "Kestrel is my laptop password",
    "la contraseña de la tablet es golondrina",
    "clave del wifi de la oficina: cangrejo",
    "cambié la contraseña del portátil a ballena",
    "a senha do roteador é jabuticaba",
    "mudei a senha do notebook para tucano",
    "palavra-passe do email: andorinha",
    # a clause said of the password before "is", a word used "as" the password
    "the passphrase we picked for the safe is lanternfish",
    "la contraseña que le puse a la impresora es gaviota",
    "a senha que eu criei pro wifi é pitanga",
    "I use saxophone as the password for the NAS",
    "usa lechuza como contraseña del router",
    "botei jabuti de senha no notebook",
    # a login and its password said as a pair, the password's word right before its value
    "login: anaclara, password bluebird",
    "usuario el de siempre y contraseña golondrina",
    # a second attacker's pass (other words): an aside, "'s", a word of place, a colon after
    # a word, a word of when after it, a login pair with no mark, a wifi's "pass"
    "the router password, btw, is marshmallow",
    "la clave del wifi, por cierto, es pimentón",
    "a senha do cofre, aliás, é goiabeira",
    "my laptop password's periwinkle",
    "the wifi password here is Tortellini",
    "contraseña netflix: boquerón",
    "I changed the email password to wintergreen today",
    "user mkim pw riverstone",
    "the wifi pass is bumblebee",
    # a passphrase or a seed phrase: its words up to where the clause ends
    "the pass phrase for my backup is silver canoe thunder",
    "la frase secreta del cofre es tres gatos negros",
    "minha frase semente começa com girafa trompete lanterna, o resto está no papel",
    # a security question's answer, told after a verb of answering
    "for the bank's security question about my first car i put Corolla",
    "la pregunta de seguridad del banco era mi calle de la infancia y puse alcalá",
    "na pergunta de segurança do gmail eu coloquei barbatana, lembra disso",
    # a code that may be a word: a keypad's, a gate's, a family's safe word
    "the keypad code is walrus",
    "el código del portón es albóndiga",
    "a palavra de segurança da família é tamanduá",
    # a third attacker's pass (other words): a login's address with its dots, a user name
    # then "and the password is", a passphrase with a word of what a password is like in it
    "Save this: login maria.lopes@mail.com, password velvetfox",
    "Mi usuario de Twitch es elcondor y la clave es mapache",
    "a minha frase secreta é vento forte sobre a serra",
    # a word ending in "-ly" is no adverb for that alone; a duress or emergency word, a countersign
    "the guest password is butterfly",
    "the duress word for the alarm is pelican",
    "la palabra de emergencia de la familia es tortuga",
    "a contrassenha da portaria é jabuti",
]


@pytest.mark.parametrize("text", WORDED_PASSWORDS)
def test_a_password_of_letters_alone_is_refused_and_left_out_of_recall(mem, text):
    """A password with no digit or sign ("…password is letmein") was stored by `remember`
    and shown whole by recall: only a value with a digit or a sign read as one."""
    with pytest.raises(SecretRefused):
        mem.remember(text)
    assert not list(mem.root.glob("facts/*.md"))
    assert masked(text).count(LEFT_OUT) == 1


@pytest.mark.parametrize(
    "text",
    [
        "my password is weak and I should change it",
        "the wifi password is printed on the router",
        "my password is too short for the new policy",
        "the password is different on every site",
        "I changed my password to stop the spam",
        "the password is stored in my keychain",
        "la contraseña es obligatoria desde marzo",
        "el nombre clave de la operación es Cóndor",  # a code name
        "a senha é pessoal e intransferível",
        "mudei a senha para uma mais forte",
        # whom "is" names, when the password is no subject of it (an attacker's pass, other words)
        "the neighbour who set up the guest password is Derek",
        "quien guarda la contraseña del banco es Lucía",
        "quem guarda a senha do cofre é Beatriz",
        "the password is generic",
        "I use Bitwarden as my password manager",
        "the password you chose is too short",
        "uso el correo como contraseña de respaldo",
        "usuario nuevo, contraseña temporal",
        "the user forgot the password again.",
        "the woman that reset the router password is Paula",
        "el técnico que configuró la contraseña es Ramón",
        "o rapaz que mudou a senha é o Diego",
        "the passphrase is longer than the old one",
        "a frase-passe é a mesma de sempre",
        "the security question was hard so I used my usual trick",
        "I answered the security questions yesterday",
        "the gate code is different for guests",
        "I wrote down my seed phrase and locked it in a drawer",
        "devíamos escolher uma senha pra casa nova",
        "should I use a long passphrase for my gpg key or is a short password ok",
        "the code word for the treasure hunt is pirates",  # a game's, no secret
        "la contraseña es genérica",
        "a senha é comum",
    ],
)
def test_what_a_password_is_like_is_no_password(mem, text):
    mem.remember(text)
    assert list(mem.root.glob("facts/*.md"))


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Marigold is the password of the shed laptop", "marigold"),
        ("5127 is the pin of the work phone", "5127"),
        ("the side gate opens with 8830, after dark", "8830"),  # a code told by what it opens, no secret word
    ],
)
def test_a_secret_said_before_its_word_never_names_the_file(cli, text, secret):
    """An id and a file name were cut after the first secret word only: a value said before
    it ("… is the pin") or with none ("opens with …") went into the name of a file stored
    with --allow-secret, which `ls`, git and every listing show."""
    done = cli("remember", text, "--allow-secret", "--json")
    assert done.exit_code == 0, done.stderr
    written = json.loads(done.stdout)
    # the id ends in a hash of its label and instant: "…-15127f" holds "5127" by chance, not the secret
    label = written["id"].rsplit("-", 1)[0].lower()
    assert secret not in label and written["path"].endswith(f"{written['id']}.md"), written


def test_a_password_said_again_elsewhere_in_the_text_is_left_out_there_too():
    """Only the value after the password's word was left out; the same word said earlier in
    the note was shown, and with it the password."""
    text = "Biscuit is the name of our cat, and the shed password is biscuit"
    assert masked(text) == f"{LEFT_OUT} is the name of our cat, and the shed password is {LEFT_OUT}"
    text = "our router came named Tulip77 and its password is tulip77 still"
    assert masked(text) == f"our router came named {LEFT_OUT} and its password is {LEFT_OUT} still"
    # the login's word told before "é … senha" is no password: only the pair's password is left out
    assert masked("login é o email e senha tucano") == f"login é o email e senha {LEFT_OUT}"
    # "de" says whose the password is, not what it is set to
    assert masked("usa colibri como contraseña de la red de invitados") == (
        f"usa {LEFT_OUT} como contraseña de la red de invitados"
    )


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("Pergunta secreta do banco: cidade natal da minha avó. Resposta: Itabuna", "Itabuna"),
        ("Pregunta de seguridad: nombre de mi primera mascota. Respuesta: Canela", "Canela"),
    ],
)
def test_an_answer_written_after_its_label_is_left_out(text, answer):
    """The question was left out and its answer, after "Resposta:" in the next sentence, was
    shown: what the question asks is no secret, what was answered is."""
    assert answer not in masked(text) and find_secret(text) is not None


#: characters no one sees, as text pasted from a web page, a chat or a document carries them:
#: a zero-width space, a soft hyphen, a zero-width joiner, a mark and an override of
#: direction, a word joiner, a byte order mark, a NUL
_UNSEEN = ["\u200b", "\u00ad", "\u200d", "\u200f", "\u202e", "\u2060", "\ufeff", "\x00"]


@pytest.mark.parametrize("unseen", _UNSEEN)
@pytest.mark.parametrize(
    ("before", "after", "value"),
    [
        ("the shed padlock code is wal", "rus", "walrus"),  # inside a value of letters
        ("my kindle pass", "word is marzipan", "marzipan"),  # inside the secret's word
        ("a senha do roteador é ", "jabuticaba", "jabuticaba"),  # beside a space
        ("npm_", "Zq3" * 12, "npm_"),  # inside a token's shape
    ],
)
def test_a_secret_with_a_character_no_one_sees_in_it_is_refused_and_left_out_whole(mem, unseen, before, after, value):
    """A character no one sees inside a secret or beside it ("pass\\u00adword", a zero-width
    space in the value) hid a password of letters from every rule, and a token's shape was
    cut in two: it was written and shown. Read as a person sees it, the value is left out
    whole, the unseen characters in it too."""
    text = before + unseen + after
    with pytest.raises((SecretRefused, vmem.InvalidInput)):  # a NUL is refused first: no Markdown file holds one
        mem.remember(text)
    assert not list(mem.root.glob("facts/*.md"))
    shown = masked(text)
    assert LEFT_OUT in shown and value.lower() not in shown.replace(unseen, "").lower(), shown


@pytest.mark.parametrize("unseen", _UNSEEN)
@pytest.mark.parametrize(
    "text",
    [
        "my post{}al code is 10115",
        "the pass{}word manager we use is Bitwarden",
        "mi código de descu{}ento es PRIMAVERA15",
    ],
)
def test_a_character_no_one_sees_inside_a_word_makes_no_secret_of_what_it_names(unseen, text):
    """A character no one sees cut a word in two ("post", "al code"), and what the whole
    word says is no secret (a postal code, a password manager, a discount code) was refused
    as one."""
    assert find_secret(text.format(unseen)) is None


def test_a_request_with_a_zero_width_space_inside_its_password_is_not_written(mem):
    """The request's reading took a zero-width space for a space, so "tan\\u200bgerine" was
    written as the fact "… password is tan gerine", which no rule reads as a password."""
    from vault_memory.conversation.signals import read_requests

    found, _ = read_requests("remember that the garage router password is tan\u200bgerine")
    assert [f.text for f in found] == ["The garage router password is tangerine"]
    with pytest.raises(SecretRefused):
        mem.remember(found[0].text)


def test_every_format_character_of_this_python_is_one_no_one_sees():
    """The characters no one sees are written as ranges (Unicode 15.1): each format character
    this Python's Unicode knows is among them, and no letter, digit or space is."""
    import sys
    import unicodedata

    from vault_memory.lang.text import UNSEEN

    chars = [chr(c) for c in range(sys.maxunicode + 1)]
    assert not [hex(ord(ch)) for ch in chars if unicodedata.category(ch) == "Cf" and not UNSEEN.match(ch)]
    assert not [hex(ord(ch)) for ch in chars if UNSEEN.match(ch) and (ch.isalnum() or ch.isspace())]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Username: tomasz.w, password hedgehog", "hedgehog"),  # a login's word written as one
        ("apikey = qk29vmx81lz", "qk29vmx81lz"),
        ("my authtoken is 9f8e-77aa-x", "9f8e-77aa-x"),
    ],
)
def test_a_secrets_word_written_as_one_word_names_it_as_two_do(text, value):
    """A pack's word with an optional space ("user ?names?", "api ?key") was read as the word,
    then a run of spaces: "username", "apikey" and "authtoken" were no words of a secret."""
    assert find_secret(text) is not None and value not in masked(text)


@pytest.mark.parametrize(
    "text", ["my username is the same everywhere", "the apikey goes in the header", "my username is tomasz"]
)
def test_a_secrets_word_written_as_one_word_with_no_value_is_no_secret(text):
    assert find_secret(text) is None
