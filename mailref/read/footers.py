"""The footer a phone or a mail app writes under the sender's words ("Sent from my iPhone",
"Get Outlook for iOS", "Gesendet von Outlook für Android", "Envoyé à partir de Outlook pour
iOS"): the whole line, of a known form, in the languages the apps are localised to. What the
phone puts below it is the old mail (quotes.py)."""

from __future__ import annotations

import re

# A phone's or a webmail's footer: the whole line, of a known form ("Sent from my iPhone",
# "Sent from my Verizon Wireless BlackBerry", "Get Outlook for iOS"); a sentence that merely
# begins like one ("Sent from my desk, is much easier …") is the sender's own.
_DEVICE = (
    r"(?:[\w'’+-]+\s){0,3}(?:iPhone|iPad|iPod|Android|BlackBerry|Galaxy|Samsung|Pixel|Huawei|Xiaomi|Nokia|"
    r"Motorola|OnePlus|Xperia|HTC|phone|smartphone|mobile|mobile device|device|tablet|Kindle|Watch|"
    r"Windows Phone|Fairphone|Oppo|Honor)\w*(?:\s\w+)?\s?"
)
_FOOTER = re.compile(
    r"^\s*(?:Sent from my "
    + _DEVICE
    + r"|Sent from (?:Outlook|Mail|Yahoo Mail|ProtonMail|Samsung Mobile|"
    r"Gmail Mobile|Mail for Windows(?: 10)?)(?: for \w+)?|Get Outlook for \w+|Sent with Proton "
    r"Mail|"
    r"Sent with Sparrow|Sent using \w+(?: \w+)?|Sent via \w+(?: \w+)?|"
    r"Von meinem "
    + _DEVICE
    + r"gesendet|Envoyé de mon "
    + _DEVICE
    + r"|Enviado desde mi "
    + _DEVICE
    + r"|"
    r"Verzonden vanaf mijn " + _DEVICE + r"|Verstuurd vanaf mijn " + _DEVICE + r"|"
    r"(?:Skickat från min|Sendt fra min|Inviato da(?: il mio)?|Enviado do meu|Enviado de "
    r"meu|Enviat des del meu|"
    r"Wysłane z(?: mojego)?|Odesláno z(?: mého)?|Отправлено с|Lähetetty|Envoyé depuis(?: mon)?|"
    r"Gesendet von(?: meinem)?)\s+"
    r"(?:iPhon|iPad|Android|Galaxy|Samsung|Pixel|Huawei|Xiaomi|smartphone|telefon|mobil)[\w'’]*|"
    r"从我的\s?iPhone发送|從我的\s?iPhone傳送|iPhoneから送信|iPadから送信|내 iPhone에서 보냄)"
    r"\s*[.!]?\s*(?:<https?://[^\s<>]+>)?\s*$",
    re.I,
)
# An app's footer in its localised forms: "<sent> <from> [my] <app> [<for> <system>]" and
# "<get> <app> <for> <system>" ("Gesendet von Outlook für Android", "Envoyé à partir de Outlook
# pour iOS", "Enviado desde Outlook para Android", "Hent Outlook til iOS").
_APP = r"(?:Outlook|Mail|Yahoo Mail|Gmail|ProtonMail|Proton Mail|Spark|BlueMail|Samsung Mail)"
_SYSTEM = r"(?:iOS|Android|Windows(?: 10| 11)?|Mac|macOS|iPhone|iPad)"
_FOR = r"(?:for|für|pour|para|per|voor|för|til|dla(?: systemu)?|pro|для|için|számára|-hoz|varten)"
_SENT = (
    r"(?:Sent|Gesendet|Envoyé|Enviado|Enviada|Inviato|Verzonden|Verstuurd|Skickat|Sendt|"
    r"Wysłane|Odesláno|Odoslané|Отправлено|Надіслано|Lähetetty|Küldve|Gönderildi|Trimis|Poslano)"
)
_FROM = (
    r"(?:from|von|à partir de|depuis|de|desde|do|da|dal|vanuit|vanaf|van|från|fra|z|ze|zo|"
    r"из|с|з|din|iz|from my|with)(?: (?:my|meinem|mon|mi|meu|mijn|min|mitt|mojego|mého))?"
)
_GET = (
    r"(?:Get|Download|Holen Sie sich|Obtenir|Télécharger|Obtener|Descargar|Scarica|Ottieni|"
    r"Obter o|Obtenha o|Baixe o|Haal|Hämta|Skaffa|Få|Hent|Pobierz(?: aplikację)?|"
    r"Stáhnout|Скачать|Получить|Lataa|Töltse le|Szerezd meg)"
)
_APP_FOOTER = re.compile(
    rf"^\s*(?:{_SENT} {_FROM} (?:(?:the |l'|la |el |die |de |aplikacji |приложения )?{_APP})"
    rf"(?: {_FOR} {_SYSTEM})?|{_GET} {_APP}(?: {_FOR} {_SYSTEM}| {_SYSTEM})(?: herunterladen)?|"
    rf"{_APP} {_FOR} {_SYSTEM} (?:herunterladen|downloaden|letöltése))"
    r"\s*[.!]?\s*(?:<https?://[^\s<>]+>)?\s*$",
    re.I,
)
# A phone's own footer in languages the pattern above does not hold: Hungarian
# ("iPhone-ról küldve", "Az iPhone-omról küldve"), Finnish ("Lähetetty iPhonesta").
_PHONE_ELSEWHERE = re.compile(
    r"^\s*(?:(?:Az )?(?:iPhone|iPad|Android|Samsung)[\w-]*(?:ról|ről) küldve|Lähetetty "
    r"(?:iPhonesta|iPadista|Android-puhelimesta|puhelimesta)|"
    r"(?:iPhone|iPad)(?:'?(?:umdan|imdan|dan|den)) gönderildi)\s*[.!]?\s*$",
    re.I,
)


def is_footer(line: str) -> bool:
    """Is LINE, whole, a phone's or a mail app's footer?"""
    if len(line) > 120:
        return False
    return bool(_FOOTER.match(line) or _APP_FOOTER.match(line) or _PHONE_ELSEWHERE.match(line))
