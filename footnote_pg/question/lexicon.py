"""The router's vocabulary: words that are never names, slot words, and the cue patterns of each intent."""

from __future__ import annotations

import re

# Words that are never part of a name the user typed (question words, intent words, periods).
VOCABULARY = frozenset("""
a an the this that these those of in on at for from to by with about as and or but vs versus via
per is are was were be been being am do does did doing done have has had having will would can
could should shall may might must i me my we us our ours you your it its they them their theirs
he she his her him who whom whose what whats which when where why how much many any some all
each every no not yes please pls kindly thanks thank hi hello hey tell show give list display
get find check look see know let lets want need like just also still yet already again
currently current now today right total overall amount amounts money sum number numbers figure
figures value level status info information detail details report summary overview breakdown
exactly approximately roughly around more most less least than over under between across into
out up down off so far since until till through during within there here then there's
owe owes owed owing outstanding open balance balances unpaid past due overdue arrears behind
late payment payments pay paid paying payer payers debt debts receivable receivables ar
accounts account aging ageing aged bucket buckets dso days day sales sale revenue revenues
turnover income invoiced invoice invoices billed bill billing earned earn earnings made make
sell sold grow grew growth grown rise rose risen increase increased decrease decreased drop
dropped fall fell fallen decline declined change changed changes compare compared comparison
difference higher lower better worse drove drive driven caused cause causes reason reasons
explain driver drivers risk risky riskiness worry worried concern concerned concerning trouble
credit creditworthy creditworthiness ticket tickets support case cases complaint complaints
issue issues incident incidents request requests top biggest largest best highest customers
customer client clients company companies firm supplier suppliers vendor vendors item items
stock inventory hand units left quantity sku purchase order orders po pos pending bank iban
legitimate legit safe real genuine new transfer wire quarter quarters month months year years
fiscal fy calendar ytd week weeks date end close start beginning first last previous prior
next yesterday tomorrow q1 q2 q3 q4 h1 h2 half
january february march april june july august september october november december jan feb mar
apr jun jul aug sep sept oct nov dec
one two three four five six seven eight nine ten twenty
again ok okay mean means meant regarding re entire whole full currently anything something
everything nothing money euros euro eur cash flow profit profits margin margins net gross
named called containing contains contain starting start starts begin begins beginning name
names letter letters ranked rank ranking by much long quickly fast take takes collect
collected collection terms term average window sorted sort order ordered
high severity critical severe escalated escalation
risky healthy reliable trustworthy danger red flag flags warning signs health
date dates today's recently lately
other others another same limit limits
ebitda ebit budget budgets salary salaries payroll wages weather headcount employees staff forecast forecasts
valuation worth cost costs expense expenses spend spending
""".split())

_ARTICLES = frozenset({"the", "our", "a", "an", "my"})
# Words after which a name can follow ("does X owe", "for X", "is X at risk").
_SLOT_BEFORE = frozenset("""
does do did is are was were for of from by with about to at on has have customer client supplier
vendor and or vs versus than pay paying between compare owes owe named called
""".split())
# The narrower set for questions where a name is optional ("revenue from X", "open POs with X").
_SLOT_PREP = frozenset("for of from by with to at and or vs versus than between named called"
                       .split())



def _rx(pattern: str) -> re.Pattern[str]:
    """A pattern for the lower-cased question (IGNORECASE would make every search slower)."""
    return re.compile(pattern)


def _rxi(pattern: str) -> re.Pattern[str]:
    """A pattern for the question as typed."""
    return re.compile(pattern, re.IGNORECASE)


_INSTRUCTION = _rx(
    r"\b(?:ignore|disregard|forget|override|bypass|skip|circumvent)\b.{0,40}\b(?:instr(?:uctions?\b|s?\.|s?\b)|rules?\b"
    r"|prompts?\b|guidelines?\b|guardrails?\b|constraints?\b|restrictions?\b|directives?\b|checks?\b|citations?\b"
    r"|approvals?\b|(?:approval|release|security)\s+(?:gates?|steps?|process)\b|controls?\b|safeguards?\b"
    r"|four[\s-]eyes)"
    r"|\byou\s+are\s+(?:now|no\s+longer)\b|\bact\s+as\b|\bpretend\s+(?:to\s+be|you\s+are|that)\b"
    r"|\bsystem\s+prompt\b|\b(?:reveal|show|print|repeat|output|leak)\b.{0,30}\b(?:prompt|instructions"
    r"|configuration|hidden\s+rules|secrets?|passwords?|credentials?)\b|\bjailbreak|\bdeveloper\s+mode"
    r"|\bdan\s+mode|\bfrom\s+now\s+on\b|\bnew\s+instructions?\b|\bdo\s+anything\s+now\b"
    r"|\brole[\s-]?play\b|\bmake\s+up\s+(?:a\s+)?(?:number|figure|answer)|\binvent\s+(?:a\s+)?"
    r"(?:number|figure)|\bjust\s+(?:guess|make\s+it\s+up)\b|\bwithout\s+(?:any\s+)?(?:citations?"
    r"|sources?|evidence)\b|^\s*(?:system|admin|developer)\s*:|\byou\s+(?:may|can|are\s+allowed\s+to)\s+now\b"
    r"|\b(?:estimate|guess|approximate)\s+(?:the\s+)?(?:numbers|figures)\b"
    r"|\b(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+)?(?:of\s+)?(?:the\s+|that\s+)?(?:above|previous|prior|earlier"
    r"|prev\.?)(?!\w)"
    r"|<!--\s*(?:system|assistant|developer|admin)\s*:")
_DATABASE = _rx(
    r"\b(?:(?:drop|truncate)\s+(?:table|schema|database|view|role|user|function|index|sequence)\b"
    r"|truncate\b|delete\s+from\b|update\s+[\w.\"]+\s+set\b|insert\s+into\b"
    r"|alter\s+(?:table|role|user|database|schema|system)\b"
    r"|create\s+(?:table|role|user|function|database|schema|index|view)\b"
    r"|grant\s+\w+(?:\s*,\s*\w+)*\s+on\b|revoke\b"
    r"|select\s+(?:\*|[\w.()*]+(?:\s*,\s*[\w.()*]+)*)\s+from\s+\w|copy\s+\w+\s+(?:to|from)\b"
    r"|pg_\w+\s*\(|execute\s+\w|or\s+'?1'?\s*=\s*'?1\b"
    r"|(?:change|set|update|edit|modify|raise|lower)\s+(?:the\s+|their\s+|its\s+)?(?:due\s+date"
    r"|credit\s+limit|payment\s+terms|amount|status|iban|bank\s+details)\s+(?:of|for|on|to)\b"
    r"|\b(?:bump|raise|increase|lower|reduce|cut|set|change|up)\s+(?:\S+\s+){0,2}?(?:credit\s+)?limit\s+to\b"
    r"|\b(?:credit|refund|void|cancel|write\s+off)\s+(?:it|them|this|that)\s+in\s+full\b)"
    r"|;\s*--")
# An imperative to change data, at the start of a sentence ("Delete invoice 8812").
_COMMAND = _rx(
    r"(?:^|[.;!?:,]\s+)(?:(?:please|pls|kindly|can\s+you|could\s+you|bitte|ok|okay|so|just|now|then|also)\s+)*"
    r"(?:write[\s-]off(?!s)|delete|remove|erase|wipe|purge|drop|modify|overwrite|mark|void"
    r"|insert|create|rename|reset|edit|update|set|change|cancel|add|order|book|post|enter|register|record"
    r"|lösche|storniere|ändere|lege|bestelle|buche|increase|decrease|raise|reduce|lower)\b"
    r"(?!\s+(?:in|of|on|me|to|over|between|up)\b)"
    r"|\b(?:stornieren|löschen|ändern|anlegen|buchen|erhöhen|senken|freigeben|sperren|entsperren|ausbuchen"
    r"|abschreiben|setzen|schließen|schliessen|zuweisen|anlegen|hochsetzen|heraufsetzen|runtersetzen|herabsetzen"
    r"|canceln|cancellen|stornier(?:en|t)|gutschreiben|korrigieren|eintragen|austragen|zurücksetzen)"
    r"(?:\s+(?:bitte|pls|please|danke))?\s*[?.!]*$|^\W*storno\b"
    r"|\b(?:set|then)\s+up\s+(?:a\s+)?new\s+(?:supplier|customer|vendor|item)\b|\bthen\s+(?:credit|delete|void|cancel)\b")
_CURRENCY = _rx(
    r"\b(?:(?:in|into|to|as)\s+(?:us\s+|american\s+|canadian\s+|australian\s+|polish\s+|swedish\s+|danish\s+"
    r"|norwegian\s+|czech\s+|swiss\s+|british\s+|japanese\s+|chinese\s+"
    r"|(?:polnisch|schwedisch|dänisch|norwegisch|tschechisch|amerikanisch|britisch|japanisch)e[nm]?\s+|schweizer\s+)?"
    r"(?:dollars?|usd|gbp"
    r"|chf|jpy|cny|sek|dkk|nok|pln|czk|huf|yen|yuan|pounds?(?:\s+sterling)?|sterling|swiss\s+francs?"
    r"|francs?|z[lł]oty|korun[ay]?|kron(?:or|er|a|e|en)|crowns?|bitcoin|btc|rupees?|inr)\b"
    r"|convert(?:ed|ing)?\b|exchange\s+rates?\b|usd\b|gbp\b|fx\s+rates?\b)|\$")
_FORECAST = _rx(
    r"\bwill\b(?!\s+you\b)|\b(?:going|gonna)\s+to\s+\w+|\bgonna\b|\bforecast|\bpredict|\bprojection"
    r"|\bproject(?:ed)?\s+(?:revenue|sales)|\bexpect(?:ed|ing|s)?\b|\bestimat|\boutlook\b|\banticipat"
    r"|\bbudget|\blikely\s+to\b|\bin\s+the\s+future\b|\blikelihood\b|\bprobability\b|\bchances?\s+(?:that|of)\b"
    r"|\berwart(?:en|et|e|ung|ungen)\b|\bprognos|\bhochrechnung|\b(?:fy\s*'?)?(?:20)?\d\de\b|\bprojected\b"
    r"|\bhow\s+likely\b|\bvoraussichtlich")
_ADVICE = _rx(
    r"\bshould\s+(?:we|i|you|the\s+company)\b|\bsue\b|\bsuing\b|\blawsuit|\blegal\s+action|\bcourt\b"
    r"|\bfire\b|\blay\s*off|\bhire\b|\brecommend|\badvi[cs]e|\bstrateg|\bwhat\s+(?:should|would|do)"
    r"\s+(?:we|i|you)\s+(?:do|suggest|recommend)|\bhow\s+(?:can|could|should|do)\s+(?:we|i)\s+"
    r"(?:improve|increase|grow|boost|reduce|cut|get|fix|collect|make|win|keep)|\bis\s+it\s+(?:a\s+)?"
    r"(?:good|bad|wise|smart)\s+(?:idea|move)|\bwrite\s+(?:it\s+|them\s+)?off|\bnegotiat"
    r"|\bcut\s+(?:them\s+|it\s+)?off\b|\bstop\s+(?:delivering|supplying|selling|shipping|working)"
    r"|\bcollections?\s+agency|\bbest\s+way\s+to|\bopinion\b|\bwhat\s+do\s+you\s+think"
    r"|\bis\s+it\s+(?:wise|smart|sensible|worth\s+it)\b|\bworth\s+(?:keeping|it)\b|\blohnt\s+(?:sich|es\s+sich)\b"
    r"|\bsinnvoll\b|\bempfehlenswert\b|\bgo\s+legal\b|\bgive\s+(?:them|him|her|it)\s+(?:more|extra)\s+time\b"
    r"|\bis\s+(?:our|the|their|its)\s+\w+\s+(?:good|bad|ok|okay|healthy|normal|acceptable)\s+for\b")
_SHOULD_FINE = _rx(r"\bshould\s+(?:we|i)\s+(?:still\s+|really\s+)?(?:pay|approve"
                   r"|accept(?![^?.!]{0,60}\b(?:requests?|offers?|proposals?|terms|discounts?|deals?|extensions?)\b)|trust"
                   r"|worry|be\s+(?:worried|concerned|careful|nervous)|be\s+paying)\b"
                   r"|\bshould\s+(?:we|i)\s+(?:[\w.&'-]+\s+){1,5}pay\b")
_ACTION = _rx(r"^\s*(?:please\s+|pls\s+|can\s+you\s+|could\s+you\s+|would\s+you\s+)?(?:send|e-?mail|remind|notify"
              r"|call|phone(?!\s+(?:numbers?|no\.?|on\s+file)\b)"
             r"|message|chase|escalate|schedule|book|block|unblock|approve|reject|assign|sue|draft|write\s+(?:to"
             r"|an?\s+))\b")
_FRAUD = _rx(r"\bfraud|\bscam\b|\bphishing\b|\bsuspicious\b")
_LIST_SUPPLIERS = _rx(r"\b(?:list|show|display|give\s+me|all|which|what|how\s+many)\s+(?:me\s+)?(?:all\s+|the\s+"
                      r"|our\s+|of\s+our\s+|first\s+\d{1,4}\s+)*"
                      r"(?:suppliers|vendors)\b|\bsupplier\s+(?:list|directory)\b"
                      r"|^\s*(?:suppliers|vendors)\s+(?:with\s+.+\s+in\s+(?:the|their)\s+names?|starting|beginning|named"
                      r"|called|containing)\b")
_LIST_ITEMS = _rx(r"\b(?:list|show|display|give\s+me|all|which|what|how\s+many)\s+(?:me\s+)?(?:all\s+|the\s+|our\s+"
                  r"|of\s+our\s+|first\s+\d{1,4}\s+)*"
                  r"(?:items|products|articles|skus)\b(?!\s+(?:are|is|below|under|low|need|running|out))|\b(?:item"
                  r"|product)\s+(?:list|catalog(?:ue)?)\b"
                  r"|^\s*(?:items|products|articles)\s+(?:with\s+.+\s+in\s+(?:the|their)\s+names?|starting|beginning"
                  r"|named|called|containing)\b")
_NOT_COVERED = _rx(
    r"\b(?:salary|salaries|payroll|wages?|weather|employees?|headcount|staff|ceo|cfo|coo"
    r"|stock\s+(?:price|market)|share\s+price|shares|dividends?|vat|tax(?:es)?|interest\s+rates?"
    r"|competitors?|market\s+share|news|joke|poem|recipe|capital\s+of|costs?|expenses?|spend(?:ing)?"
    r"|(?:customer\s+)?lifetime\s+value|ltv|clv|nps|net\s+promoter\s+score"
    r"|bank\s+balances?|cash\s+balances?|balances?\s+(?:in|at)\s+the\s+bank|cash\s+(?:in\s+the\s+bank|on\s+hand"
    r"|at\s+bank))\b")
# A minus sign before a count, a limit or a number of days ("top -5", "over -5 days", "a -30 day window"), or zero.
_NEGATIVE = _rx(r"(?:^|[\s(:=])[-\u2212]\s?\d+(?:[\s-]*(?:days?|customers?|clients?|debtors?|items?|invoices?|months?"
                r"|weeks?)\b|\s*$|\s+(?:biggest|largest|top|best|smallest|worst|oldest)\b)"
                r"|\b(?:top|bottom|first|last|over|under|above|below|limit|window|of)\s+[-\u2212]\s?\d")
_ZERO_COUNT = _rx(r"\b(?:top|bottom|first)\s+0+\b|\b0+\s+(?:biggest|largest|top|best|smallest|customers|clients"
                  r"|debtors)\b|\b0+[\s-]+days?\s+window\b|\bwindow\s+of\s+0+\b")
_WHO_MOST = _rx(r"\b(?:who|which|what)\b[^?.!]*\b(?:most|least|largest|biggest|smallest|highest|lowest)\b")
_TAX = _rx(r"\b(?:vat|tax(?:es)?)\b")
_PO_CONTEXT = _rx(r"\b(?:purchase\s+orders?|p\.?o\.?s?|deliver(?:y|ies)|orders?)\b")

_INVOICE_NO = _rx(r"\binv[\s_.-]?((?:19|20)\d\d|\d\d(?=[\s/_.-]\d{3}))[\s/_.-](\d{1,7})\b"
                  r"|\binvoices?\s+(?:number\s+|no\.?\s*|nr\.?\s*|#\s*)?((?:19|20)\d\d)[-/](\d{1,8})\b")
_INVOICE_BARE = _rx(r"\binvoices?\s*(?:number|no\.?|nr\.?|num\.?|#)\s*#?\s*(\d{3,8})\b"
                    r"|\binvoice\s*#?\s*(\d{3,8})\b|\binvoices\s+#?\s*(?!(?:19|20)\d\d\b)(\d{3,8})\b")
# a supplier's document number as suppliers write it (26-0882, NW-26-0688): no invoice of ours
_SUPPLIER_DOC = _rx(r"\b(?:[a-z]{1,4}-)?\d{2}-\d{3,4}\b(?![-/.]\d)")
_INVOICE_URI = _rx(r"\berp://invoice/\d+")
# a document number as an ERP writes it: INV/2026/0032, CN/2026/0002, RE-2026-00123 (not a PO or SKU number)
_DOCUMENT_NO = _rx(r"\b(?!po\b|sku\b)[a-z]{1,5}(?:/(?:19|20)\d\d/\d{2,8}|-(?:19|20)\d\d-\d{3,8})\b")
# "Art.-Nr. SKU-10075", "Artikelnr. SKU-10075": the German label of an article number before the SKU is part of it
_SKU = _rx(r"(?:\bart(?:ikel)?\.?\s*-?\s*nr\.?\s*:?\s*)?\bsku[\s#:-]*(\d{3,8})\b")
_CUSTOMER_REF = _rx(r"\b(c-\d{3,8}|c\d{4,8})\b|\bcustomer\s+(?:number\s+|no\.?\s*|#\s*|id\s+)(\d{3,8})\b"
                    r"|(erp://customer/\d+)")
# A supplier by its number or deep link: S-304, supplier no. 304, erp://supplier/304.
# "S 309", "s309": the same number typed without its hyphen (never a year, never after an apostrophe: "it's 2026").
_SUPPLIER_REF = _rx(r"\b(s-\d{2,8})\b|\b(?:supplier|vendor)\s+(?:number\s+|no\.?\s*|#\s*|id\s+)(\d{2,8})\b"
                    r"|(erp://supplier/\d+)|(?<!['\w])(s ?(?!(?:19|20)\d\d\b)\d{3,6})\b(?![.,/:-]\d)")

_STOCK = _rx(
    r"\bin\s+stock\b|\bstock(?:s|ed)?\b|\binventory\b|\bon\s+hand\b|\bre-?order\s+(?:level|point)"
    r"|\bout\s+of\s+stock|\brunning\s+(?:low|out)\b|\b(?:low|short)\s+on\b|\bleft\s+in\s+stock\b")
_HOW_MANY_HAVE = _rx(r"\bhow\s+(?:many|much)\b.+\b(?:do|have|did)\s+we\s+(?:have|got|hold|carry)\b"
                     r"|\bhow\s+(?:many|much)\b[^?.!]{1,60}\bleft\b|\b(?:are|is)\s+left\b"
                     r"|\bdo\s+we\s+(?:still\s+)?have\s+(?:enough|any)\b")
_BANK_CHANGE = _rx(
    r"\bbank\s+(?:details?|accounts?|change|data|information|info)\b|\biban\b|\bnew\s+(?:bank\s+)?"
    r"account\b|\baccount\s+(?:change|details?|number)\b|\bchange\s+(?:of|in|to)\s+(?:their\s+)?bank"
    r"|\blegit(?:imate)?\b|\bgenuine\b|\bfraud|\bphishing\b|\bscam\b|\bsuspicious\b|\bauthentic"
    r"|\bchange\s+request\b|\bpayment\s+details\b|\bphone\s+(?:numbers?\s+)?on\s+file\b|\bphone\s+numbers?\b")
_PAY = _rx(r"\b(?:pay|paying|paid|payments?|remit|wire|transfer)\b")
_SHOULD_PAY = _rx(r"\b(?:should|can|could|may|do)\s+(?:we|i)\s+(?:still\s+)?(?:pay|release\s+(?:the\s+)?payment)\b"
                  r"|\bshould\s+we\s+(?:[\w.&'-]+\s+){1,5}pay\b"
                  r"|\b(?:safe|ok|okay|fine|alright)\s+to\s+pay\b|\bpay(?:ing)?\s+the\s+new\b")
_PO = _rx(r"\bpurchase\s+orders?\b|\bp\.?o\.?s?\b|\bopen\s+orders?\b|\borders?\s+(?:from|with|to|"
          r"placed\s+with)\s+(?:our\s+)?(?:suppliers?|vendors?)?|\b(?:incoming|pending|outstanding"
          r"|expected)\s+deliveries\b|\bon\s+order\b|\bwhat\s+(?:have|did)\s+we\s+order"
          r"|\bdeliveries\s+(?:are\s+|were\s+)?(?:due|expected|coming|arriving)\b"
          r"|\borders?\s+(?:are\s+)?(?:still\s+)?open\s+(?:at|with|from)\b")
_DSO = _rx(
    r"\bdso\b|\bdays?[\s-]+(?:of\s+)?sales?[\s-]+outstanding\b|\bhow\s+(?:long|quickly|fast|many\s+days)"
    r"\s+(?:does\s+it\s+take\s+(?:for\s+)?|do\s+|does\s+|are\s+)?(?:our\s+)?(?:customers?|clients?|we)"
    r"\s+(?:take\s+to\s+|to\s+)?(?:pay|get\s+paid|collect)|\b(?:average\s+)?collection\s+(?:period|time"
    r"|days)\b|\baverage\s+days\s+to\s+(?:pay|collect)\b|\bdays\s+to\s+(?:collect|get\s+paid)\b")
_DSO_WINDOW = _rx(r"\b(\d{1,12})[\s-]*days?\b(?!\s+(?:sales|of\s+sales))"
                  r"|\bwindow\s+of\s+(\d{1,12})\b")
_AGING = _rx(
    r"\bag(?:e)?ing\b|\baged\s+(?:debt|debtors|receivables?|balances?|invoices?|report)\b"
    r"|\breceivables?\b|\baccounts?\s+receivable\b|\ba/?r\b|\bdebtors?\s+(?:list|report|book|ledger)\b"
    r"|\bopen\s+(?:invoices|items)\b|\bbuckets?\b|\b(?:still\s+)?ha(?:ve|s)\s+open\s+with\s+us\b"
    r"|\binvoices\s+(?:\S+\s+){0,5}?(?:are|is)\s+(?:still\s+)?open\b"
    r"|\b(?:anything|something)\s+(?:still\s+)?open\s+(?:with\s+us|on\s+(?:their|its|the)\s+account)\b")
# A part of the receivables by age ("more than 90 days overdue", "older than 60 days"): the aging's buckets.
_OVER_AGE = _rx(r"\b(?:more\s+than|over|older\s+than|above|beyond|at\s+least|longer\s+than)\s+\d{1,3}[\s-]*days?\b"
                r"|\b\d{1,3}\+\s*days?\b|\b\d{1,3}\s*[-–]\s*\d{1,3}\s*days?\b")
_EXPECTED = _rx(r"\b(?:expected|due|arriving|arrive|delivered|deliveries|delivery|coming\s+in)\b")
_AGING_STRICT = _rx(r"\bag(?:e)?ing\b|\baged\b|\bbuckets?\b")
_TICKETS = _rx(
    r"\btickets?\b|\bsupport\s+(?:cases?|requests?|issues?|calls?)\b|\bcomplaints?\b|\bcomplain"
    r"|\bservice\s+(?:requests?|cases?)\b|\bincidents?\b|\bescalations?\b|\bopen\s+issues?\b|\bopen\s+cases?\b"
    r"|\bunresolved\s+(?:issues?|cases?|complaints?|problems?)\b")
_RISK = _rx(
    r"\bat\s+risk\b|\brisk(?:s|y|ier|iest|iness)?\b|\bworr(?:y|ied|ying)\b|\bconcern(?:ed|ing|s)?\b"
    r"|\bcredit\s*worth(?:y|iness)\b|\bred\s+flags?\b|\bwarning\s+signs?\b|\bin\s+trouble\b"
    r"|\bhealthy\b|\bhealth\s+of\b|\breliable\b|\btrustworthy\b|\b(?:good|bad|slow|poor)\s+payer\b"
    r"|\bdanger|\bsafe\s+to\s+(?:keep\s+)?(?:deliver|sell|ship|supply)(?:ing)?\b")
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "fifteen": 15, "twenty": 20, "fifty": 50,
                 "hundred": 100}
_NUM = r"(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty|fifty|hundred)"
_WHO = r"(?:customers?|clients?|accounts?|buyers?)"
_TOP = _rx(
    rf"\btop(?:[\s-]+{_NUM})?\s+{_WHO}|\b(?:{_NUM}\s+)?(?:biggest|largest|best|most\s+valuable"
    rf"|highest[\s-]+revenue|leading|most\s+important)\s+(?:{_NUM}\s+)?{_WHO}"
    rf"|\b{_WHO}\s+(?:ranked\s+|ranking\s+)?by\s+(?:revenue|sales|turnover)\b"
    rf"|\b(?:revenue|sales|turnover)\s+(?:by|per)\s+{_WHO}|\brank(?:ed|ing)?\s+(?:of\s+)?"
    rf"(?:the\s+|our\s+)?{_WHO}|\b(?:which|what)\s+(?:{_NUM}\s+)?customers?\s+(?:bought|spent|ordered|generated"
    rf"|brought\s+in)\s+(?:the\s+)?most|\bwho\s+(?:bought|spent|ordered)\s+(?:the\s+)?most"
    rf"|\b(?:{_NUM}\s+)?(?:smallest|least\s+valuable|(?:lowest|least|most|highest)[\s-]+(?:revenue|sales|turnover)"
    rf"|weakest)\s+(?:{_NUM}\s+)?{_WHO}"
    rf"|\bbottom(?:[\s-]+{_NUM})?\s+{_WHO}|\b{_WHO}\s+with\s+(?:the\s+)?(?:least|lowest|smallest|most|highest"
    rf"|biggest|largest)\s+(?:revenue|sales"
    rf"|turnover)"
    rf"|\b(?:which|what)\s+(?:{_NUM}\s+)?customers?\s+(?:have|had|has|made|make|generated)\s+(?:\S+\s+)?(?:most"
    rf"|highest|biggest"
    rf"|largest|least|lowest|smallest)\s+(?:revenue|sales|turnover)\b"
    rf"|\b(?:which|what)\s+customers?\s+(?:bought|spent|ordered|generated)\s+(?:the\s+)?least|\bwho\s+(?:bought"
    rf"|spent)\s+"
    rf"(?:the\s+)?least")
_TOP_LIMIT = _rx(rf"\b(?:top|bottom)[\s-]+{_NUM}\b|\b(?:which|what)\s+{_NUM}\s+(?:customers|clients|debtors)\b"
                 rf"|\b{_NUM}\s+(?:worst|slowest|oldest)\s+(?:payers|debtors|customers)\b"
                 rf"|\b{_NUM}\s+(?:biggest|largest|best|top|most\s+valuable"
                 rf"|highest|leading|most\s+important|smallest|lowest|least\s+valuable|weakest)\b"
                 rf"|\b(?:biggest|largest|best|top|smallest|bottom)\s+{_NUM}\b"
                 rf"|\b{_NUM}\s+(?:customers|clients|debtors)\s+with\s+the\s+(?:biggest|largest|highest|most|least"
                 rf"|lowest|smallest|strongest|sharpest|oldest|longest|worst)\b"
                 rf"|\bthe\s+{_NUM}\s+(?:longest|latest|slowest|oldest|worst|that|which|who)\b")
_TOP_SINGLE = _rx(r"\b(?:the\s+)?(?:top|biggest|largest|best|most\s+valuable|most\s+important)\s+"
                  r"(?:customer|client|account|buyer)\b(?!s)"
                  r"|\b(?:which|what)\s+customer\s+(?:has|had|made|generated)\s+(?:\S+\s+)?(?:most|highest|biggest"
                  r"|largest)"
                  r"\s+(?:revenue|sales|turnover)\b"
                  r"|\b(?:which|what)\s+customer\s+(?:bought|spent|ordered|generated|brought\s+in)\s+(?:the\s+)?(?:most"
                  r"|least)\b|\bwho\s+(?:bought|spent|ordered)\s+(?:the\s+)?least\b")
_LIST = _rx(
    r"\b(?:list|show|display|give\s+me|get|print|name|enumerate)\s+(?:me\s+)?(?:all\s+|the\s+|our\s+"
    r"|of\s+|first\s+|\d+\s+)*(?:customers?|clients?)\b(?!\s+(?:by|with\s+(?:overdue|open|unpaid|late)|who|that))"
    r"|\ball\s+(?:(?:of\s+)?our\s+|the\s+)?customers\b(?!\s+(?:by|with\s+(?:overdue|open|unpaid)|who|that))"
    r"|\b(?:which|what)\s+customers?\s+(?:names?\s+)?(?:start|begin|are\s+(?:named|called)|have\s+.+"
    r"\s+in\s+(?:the|their)\s+names?|contain|with\s+['\"]?\w+['\"]?\s+in)"
    r"|\bcustomers?\s+(?:starting|beginning|named|called|whose\s+names?|with\s+.+\s+in\s+(?:the|their)"
    r"\s+names?)|\bhow\s+many\s+customers\b|\bcustomer\s+(?:list|directory|master)\b"
    r"|\b(?:a|any)\s+customers?\s+(?:called|named)\b|\b(?:which|what)\s+customers\s+do\s+we\s+have"
    r"|\bwho\s+are\s+our\s+customers\b|\b(?:which|what)\s+customers\s+are\s+(?:in|from|based\s+in|located\s+in)\b"
    r"|^\s*(?:the\s+)?first\s+\d{1,3}\s+customers\s*[?.!]*$")
_LIST_FILTER = _rxi(
    r"(?:start(?:s|ing)?|begin(?:s|ning)?)\s+with\s+(?:the\s+letter\s+|an?\s+)?['\"]?(.+?)['\"]?\s*[?.!]*$"
    r"|(?:named|called|containing|contains?)\s+['\"]?(.+?)['\"]?\s*[?.!]*$"
    r"|\b(?:with|(?:have|has|having)(?!\s+with\b))\s+['\"]?(.+?)['\"]?\s+in\s+(?:the|their)\s+names?")
_LIST_LIMIT = _rx(rf"\b(?:first|top|only)\s+{_NUM}\s+customers\b|\b{_NUM}\s+customers\b"
                  rf"|\b(?:max(?:imum)?|at\s+most|up\s+to|limit(?:ed)?\s+to|limit)\s+{_NUM}\b")
_LIST_SCOPE = _rx(r"\bcustomers?\s+(?:in|from|based\s+in|located\s+in)\s+[a-z]")

_STRONG_METRIC = _rx(
    r"\b(?:(?:gross|net|operating)\s+)?(?:profits?|profitability|margins?|earnings|ebitda?|ebit"
    r"|net\s+income|p\s*&\s*l|bottom\s+line)\b|\bcash[\s-]?flows?\b|\bcash\s+position\b"
    r"|\bliquidity\b|\bworking\s+capital\b")
_CASH_METRIC = _rx(r"\bcash[\s-]?flows?\b|\bcash\s+position\b|\bliquidity\b|\bworking\s+capital\b")
_WEAK_METRIC = _rx(r"\b(?:income|made|make|earn(?:ed)?|performance"
                   r"|how\s+(?:are|did|were)\s+we\s+do(?:ing)?|how\s+is\s+business"
                   r"|how\s+(?:are|were)\s+things)\b")
_REVENUE = _rx(
    r"\brevenues?\b|\bsales\b|\bturnover\b|\binvoiced\b|\binvoicing\b|\bbilled\b|\bbilling\b"
    r"|\btop\s+line\b|\b(?:how\s+much|what)\s+(?:did|have|do)\s+we\s+(?:invoice|bill|sell)\b"
    r"|\bsold\b|\bhow\s+many\s+invoices\b|\bnumber\s+of\s+invoices\b|\binvoices\s+(?:did\s+we\s+|were\s+"
    r"|we\s+)?(?:issue[ds]?|sent|raised)\b"
    r"|\b(?:how\s+much|what)\s+did\s+\S+(?:\s+\S+){0,4}\s+(?:buy|spend|order|purchase)\b"
    r"|\b(?:how\s+much|what)\s+(?:has|have)\s+(?!we\b)\S+(?:\s+\S+){0,4}\s+(?:bought|spent|ordered|purchased)\b")
_CHANGE = _rx(
    r"\b(?:chang(?:e|ed|es|ing)|(?:go|goes|gone|going|went)\s+(?:up|down)|ris(?:e|es|en|ing)|rose"
    r"|increas(?:e|ed|es|ing)|gr(?:ow|ows|own|owing|ew|owth)|drop(?:ped|s|ping)?|fall(?:en|s|ing)?"
    r"|fell|declin(?:e|ed|es|ing)|decreas(?:e|ed|es|ing)|shr(?:ink|ank|unk)|jump(?:ed)?|spiked?"
    r"|dip(?:ped)?|plunged?|slump(?:ed)?|improv(?:e|ed|ement)|worsen(?:ed)?|vs|versus"
    r"|compared?\s+(?:to|with)|comparison\s+(?:to|with)"
    r"|(?:higher|lower|more|less|better|worse|bigger|smaller)\b.{0,40}\bthan"
    r"|(?:is|are|was|were)\s+(?:\w+\s+){0,3}(?:up|down)|year[\s-]+(?:over|on)[\s-]+year|yoy|y/y"
    r"|difference|delta|trends?|against|develop(?:ed|ment)?|evolv(?:e|ed))\b")
_YOY = _rx(
    r"\byear[\s-]+(?:over|on)[\s-]+year\b|\byoy\b|\by/y\b|\b(?:compared?\s+(?:to|with)|vs\.?|versus|than"
    r"|against)\s+(?:the\s+)?(?:same\s+\w+\s+(?:of\s+)?)?(?:last|previous|prior|a)\s+year\b"
    r"|\bsame\s+period\s+(?:last|of\s+the\s+previous|of\s+last|a)\s+year\b")
_QOQ = _rx(r"\bqoq\b|\bq/q\b|\bquarter[\s-]+(?:over|on)[\s-]+quarter\b|\bsequential(?:ly)?\b")
_BASE_BEFORE = _rx(r"(?:compared?\s+(?:to|with)|vs\.?|versus|than|from|since|against)\s+"
                   r"(?:the\s+)?$")
_WHY = _rx(
    r"\bwhy\b|\bwhat\s+(?:drove|drives|caused|causes|explains|is\s+behind|was\s+behind|happened)"
    r"|\bdrivers?\b|\breasons?\s+(?:for|behind)\b|\bexplain|\bhow\s+come\b"
    r"|\bwhich\s+customers?\s+(?:drove|caused|explain)|\bwho\s+(?:drove|caused)")
_COMPARE = _rx(r"\bcompar(?:e|ing|ison)\b|\bboth\b|\bside\s+by\s+side\b|\beach\s+of\b")
_OVERDUE = _rx(
    r"\bowe[sd]?\b|\bowing\b|\boutstanding\b|\bopen\s+balances?\b|\bunpaid\b|\bpast[\s-]+due\b"
    r"|\boverdue\b|\bin\s+arrears\b|\barrears\b|\bbehind\s+(?:on|with)\b|\blate\s+(?:payments?"
    r"|invoices?|payers?)\b|\blate\s+(?:in\s+)?paying\b|\bpa(?:ys|id)\s+late\b|\bdebts?\b|\bstill\s+(?:to\s+pay"
    r"|unpaid|due)\b"
    r"|\bamount\s+due\b|\bbalance\s+due\b|\b(?:has|have)n'?t\s+(?:yet\s+)?paid\b|\bnot\s+(?:yet\s+)?"
    r"paid\b|\b(?:yet|left)\s+to\s+pay\b|\bwhat\s+is\s+due\b"
    r"|\b(?:has|have|did)\b[^?.!]{1,60}\b(?:paid|made\s+(?:any\s+)?payments?)\b|\bdays\s+(?:late|overdue|past\s+due)\b"
    r"|\b(?:if|whether)\b[^?.!]{1,60}\b(?:has\s+|have\s+)?paid\b|\b(?:how\s+far|still|far|way)\s+behind\b"
    r"|\bcurrent\s+on\s+(?:their\s+|its\s+|his\s+|her\s+)?(?:invoices|payments|bills|account)\b"
    r"|\bhow\s+much\s+is\s+\S+(?:\s+\S+){0,3}\s+behind\s*[?.!]*$")
_NOT_PAID = _rx(r"\b(?:not|n't)\s+(?:yet\s+)?paid\b|\bnot\s+paid\s+yet\b")
# All that is open, not only the overdue part: "open balance", "total outstanding", "not just overdue".
_OPEN_TOTAL = _rx(r"\bnot\s+(?:just|only)\s+(?:the\s+)?(?:overdue|past[\s-]+due|late)\b"
                  r"|\btotal\s+(?:outstanding|open|receivables?)\b"
                  r"|\b(?:open|outstanding)\s+balances?\b|\boverall\b|\bin\s+total\b|\beverything\s+(?:open"
                  r"|outstanding)\b"
                  r"|\b(?:unpaid|outstanding)\s+invoices\b(?![^?.!]*\b(?:overdue|past[\s-]+due)\b)"
                  r"|\b(?:including|incl\.?)\s+(?:what\s+is\s+)?(?:not\s+yet\s+due|current)\b|\bopen\s+included\b")
_BALANCE = _rx(r"\bbalances?\b")
_BALANCE_CLEAR = _rx(r"\b(?:open|overdue|outstanding|unpaid|past[\s-]+due)\s+balances?\b"
                     r"|\bbalances?\s+(?:due|overdue|outstanding)\b")
# Questions about many items at once: no operation lists stock across items.
_ALL_ITEMS = _rx(r"\b(?:which|what|all|any|every)\s+(?:of\s+(?:our|the)\s+)?(?:items|products"
                 r"|materials|skus|articles)\b")
_POSSESSIVE_ENTITY = _rx(r"^'s\b|^s'")
_PREP_BEFORE = _rxi(r"(?:\b(?:in|for|during|over|of|from|the)\s+)+$")
_HALF = _rxi(r"\b(?:(first|1st|h1)|(second|2nd|h2))\b")
_YEAR_IN = re.compile(r"\b(?:19|20)\d\d\b")
_NAME_GAP = re.compile(r"[\s&.'-]*")
_JOINED = _rx(r"\b(?:and|or|vs|versus|than)\b")
_ON_HAND = _rx(r"\bon\s+hand\b")
_HOW_MANY = _rx(r"\bhow\s+many\b")




# --------------------------------------------------------------------------- portfolio questions

_PAYMENTS = _rx(
    r"\bpaid\s+us\b|\bpa(?:id|ys|y)\s+us\b|\breliab\w*\b[^?.!]{0,40}\bpayments?\b|\bpayment\s+reliability\b"
    r"|\bhow\s+(?:does|do)\s+\S+(?:\s+\S+){0,4}\s+pay\s*[?.!]*$"
    r"|\bdid\b[^?.!]{1,60}\bpay(?:\s+us)?\s*[?.!]*$|(?<!\bon\s)(?<!\bwith\s)\bpayments\s*[?.!]*$"
    r"|\bpayments?\s+(?:from|by|received|history|made\s+by)\b|\bpayment\s+history\b"
    r"|^\W*payments\b|\bhow\s+(?:long|quickly|fast)\s+pays\b|^\W*pays\b[^?.!]{1,60}\bon\s+time\b"
    r"|\bhow\s+much\s+(?:has|have|did)\b[^?.!]{1,60}\bpa(?:id|y)\b(?!\s+(?:them|to|the\s+supplier))"
    r"|\bwhen\s+did\b[^?.!]{1,60}\b(?:last\s+)?pay\b|\b(?:last|latest|most\s+recent)\s+payment\b"
    r"|\b(?:average|avg|typical|mean|usual)\s+(?:number\s+of\s+)?(?:days|time)\s+(?:it\s+takes\s+)?to\s+pay\b"
    r"|\bhow\s+(?:long|quickly|fast|many\s+days)\s+(?:does|do|did)\b[^?.!]{1,60}\b(?:take\s+to\s+)?pay\b"
    r"|\bpa(?:ys?|id)\s+(?:us\s+)?late\b|\blate\s+payers?\b|\bpa(?:ys?|id)\s+(?:us\s+)?on\s+time\b"
    r"|\bhow\s+many\s+times\b[^?.!]{0,60}\bpaid\b|\bhow\s+many\s+payments\b|\bpayments?\s+(?:in|this|last|since)\b"
    r"|\bhow\s+late\s+(?:is|are|does|do|did)\b|\b(?:has|have|did)\b[^?.!]{1,60}\bpaid\s+(?:us\s+)?(?:anything"
    r"|any\s+money"
    r"|at\s+all|something)\b|\bpaid\s+(?:in|during|since|this|last)\b|\bpayment\s+(?:behaviou?r|record|pattern)s?\b"
    r"|\bdays\s+to\s+pay\b|\bwhat\s+(?:did|has|have)\s+(?:[\w.&'-]+\s+){1,6}pa(?:y|id)\b(?!\s+(?:them|to|the\s+supplier))|\bdid\b[^?.!]{1,60}\bpay\s+(?:us\s+)?(?:anything|something|at\s+all)\b"
    r"|\bhow\s+much\s+(?:[\w.&'-]+\s+){1,6}paid\b(?!\s+(?:them|to|the\s+supplier))")
_PROFILE = _rx(
    r"\bprofile\b|\btell\s+me\s+(?:everything\s+)?about\b|\b(?:an\s+)?overview\s+of\b|\bsummary\s+(?:of|for|on)\b"
    r"|\bwho\s+is\b|\bwho\s+are\b(?!\s+our\b)|\bdetails\s+(?:of|for|on|about)\b|\bwhat\s+do\s+we\s+know\s+about\b"
    r"|\binfo(?:rmation)?\s+(?:on|about|for)\b|\bat\s+a\s+glance\b|\bmaster\s+data\b|\bcredit\s+limit\b"
    r"|\bpayment\s+terms\b|\bterms\s+(?:of|for)\b|\baccount\s+(?:owner|manager)\b|\bwho\s+(?:looks\s+after|manages"
    r"|owns)\b"
    r"|\b(?:what|which)\s+(?:country|city|town)\b|\bwhere\s+(?:is|are)\b[^?.!]{1,60}\b(?:based|located|from)\b"
    r"|\bcustomer\s+(?:number|no\.?|id)\s+(?:of|for)\b|\bcustomer\s+(?:number|no)\s*[?.!]*$"
    r"|\b(?:find|look\s+up|search\s+for|pull\s+up)\s+(?:the\s+)?customer\b|\bcustomer\s+(?:card|record|details|file)\b")
_RANK_OWE = _rx(
    r"\b(?:who|(?:which|what)\s+(?:\d+\s+|two\s+|three\s+|five\s+|ten\s+)?(?:customers?|clients?))\s+(?:owes?|has|have|had)"
    r"\s+(?:us\s+)?(?:the\s+)?"
    r"(?:most|least|largest|biggest|smallest|highest|lowest|oldest)\b(?!\s+(?:revenue|sales|turnover)\b)"
    r"|\btop\s+(?:\d+\s+)?by\s+(?:overdue|outstanding|open\s+balance|balance|debt)\b"
    r"|\b(?:biggest|largest|top|worst|slowest|smallest|lowest|highest)\s+(?:\d+\s+)?(?:debtors|payers|late\s+payers"
    r"|overdue\s+(?:balances?|amounts?|customers|accounts)|outstanding\s+balances?|open\s+balances?|balances)\b"
    r"|\bcustomers?\s+(?:ranked|sorted|ordered|listed)\s+by\s+(?:overdue|outstanding|open\s+balance|what\s+they\s+owe"
    r"|how\s+much\s+they\s+owe|debt|days\s+overdue)\b|\b(?:oldest|longest)\s+overdue\s+(?:invoices|customers|balances"
    r"|accounts)\b"
    r"|\btop\s+(?:\d+\s+)?(?:customers|clients|debtors)\s+by\s+(?:overdue|outstanding|open|balance|debt|receivables?)\b"
    r"|\btotal\s+overdue\s+(?:across|of|for)\s+(?:all\s+)?(?:our\s+)?customers\b"
    r"|\bwhich\s+customers\s+(?:have|are|has)\s+(?:(?:any|an?)\s+)?(?:overdue|late|past\s+due|outstanding)\b"
    r"|\b(?:customers|clients)\s+with\s+(?:the\s+)?(?:most|largest|biggest|oldest|smallest|highest)\s+(?:overdue"
    r"|outstanding"
    r"|open|unpaid)\b"
    r"|\bworst\s+payers?\b|\bslowest\s+payers?\b|\b(?:the\s+)?most\s+overdue\s+(?:invoices|customers|accounts|clients)\b"
    r"|\b(?:which|what)\s+(?:customers?|clients?)\b[^?.!]{0,30}\boverdue\s+(?:the\s+)?longest\b|\bwho\b[^?.!]{0,30}\boverdue"
    r"\s+(?:the\s+)?longest\b|\b(?:which|what)\s+(?:customers|clients)\s+(?:are|is)\s+(?:late|slow)\s+(?:paying|payers|with\s+"
    r"(?:their\s+)?payments?)\b"
    r"|\bwho\s+(?:is|are)\s+(?:still\s+)?(?:overdue|late|behind|in\s+arrears)\b"
    r"|\b(?:which|what)\s+(?:customers?|clients?)\b[^?.!]{0,30}\b(?:late|behind)\s+(?:the\s+)?longest\b"
    r"|\bhow\s+many\s+(?:customers|clients)\s+(?:have|are|has)\s+(?:anything\s+|any(?:thing)?\s+)?(?:overdue|late|past\s+due)\b"
    r"|\b(?:which|what)\s+customers\s+(?:are|were)\s+(?:still\s+)?(?:overdue|late|behind|in\s+arrears)\b"
    r"|\brank(?:ed|ing)?\s+(?:of\s+)?(?:the\s+|our\s+|all\s+)?(?:customers|clients|debtors)\s+by\s+(?:oldest|days|overdue"
    r"|outstanding|open"
    r"|balance|debt|what\s+they\s+owe|how\s+much\s+they\s+owe|receivables?)"
    r"|\b(?:top|bottom)\s+(?:\d+\s+|\w+\s+)?(?:customers|clients|debtors)\s+by\s+(?:overdue|outstanding|open|balance"
    r"|debt"
    r"|receivables?)\b|\b(?:customers|clients)\s+with\s+(?:the\s+)?(?:oldest|longest)\s+(?:unpaid|open|overdue|late)\b")
_RANK_ASC = _rx(r"\b(?:smallest|lowest|least|fewest|bottom|weakest)\b")
_RANK_OLDEST = _rx(r"\b(?:oldest|longest|worst|slowest)\b|\bdays\s+overdue\b|\blate\s+payers?\b"
                   r"|\bmost\s+overdue\s+(?:invoices|customers|accounts|clients)\b")
_RANK_OPEN = _rx(r"\b(?:outstanding|open\s+balances?|receivables?|balances?|debt|debtors)\b")
_ALL_OVERDUE = _rx(r"\btotal\s+overdue\s+(?:across|of|for)\s+(?:all\s+)?(?:our\s+)?customers\b"
                   r"|\b(?:total|sum)\s+(?:amount\s+)?of\s+all\s+(?:the\s+)?(?:overdue|past[\s-]+due)\s+invoices\b"
                   r"|\b(?:for|across)\s+(?:the\s+)?whole\s+(?:company|business|firm)\b|\bcompany[\s-]wide\b"
                   r"|\bacross\s+all\s+customers\b|\b(?:overdue|past[\s-]+due)\b[^?.!]{0,40}\ball\s+(?:our\s+)?customers\b"
                   r"|\b(?:overall|total|combined)\s+(?:amount\s+)?(?:overdue|past[\s-]+due|in\s+arrears)\b"
                   r"|\b(?:overdue|past[\s-]+due)\s+(?:in\s+)?total\b|\btotal\s+(?:receivables|ar|a/r)\b"
                   r"|\bhow\s+much\s+is\s+(?:overdue|past[\s-]+due)\b(?!\s+(?:for|from|with|at|by))"
                   r"|\bhow\s+much\s+(?:money\s+)?(?:are|is)\s+(?:all\s+)?(?:our\s+)?customers\s+(?:late|behind"
                   r"|overdue)"
                   r"|\bhow\s+much\s+(?:money\s+)?(?:do|does)\s+(?:all\s+)?(?:our\s+)?customers\s+owe\b"
                   r"|\bacross\s+all\s+(?:our\s+)?customers\b"
                   r"|\bhow\s+much\s+is\s+(?:more|over|older)\s+than\s+\d+\s+days\b")
_MONTHLY = _rx(r"\b(?:by|per|each|every)\s+month\b|\bmonthly\b|\bmonth[\s-]by[\s-]month\b"
               r"|\bbroken\s+down\s+by\s+month\b"
               r"|\bfor\s+each\s+month\b|\bmonth\s+over\s+month\b")
_CREDIT_NOTES = _rx(r"\bcredit\s+(?:notes?|memos?)\b|\bcredits?\s+(?:we\s+)?(?:issued|given|granted)\b")
_BELOW_REORDER = _rx(
    r"\b(?:below|under)\s+(?:the\s+|their\s+|its\s+)?re-?order(?:\s+(?:levels?|points?))?\b"
    r"|\bneeds?\s+(?:to\s+)?(?:be\s+)?re-?order"
    r"|\bre-?order(?:ing)?\s+(?:list|needed|now)\b|\blow\s+(?:on\s+)?stock\b|\brunning\s+(?:low|out)\b"
    r"|\bout\s+of\s+stock\b"
    r"|\bwhat\s+(?:should|do)\s+we\s+(?:need\s+to\s+)?re-?order\b|\bshort\s+on\s+stock\b")
_OWNER = _rxi(
    r"\b(?:managed|owned|handled|looked\s+after|served)\s+by\s+(.+?)\s*[?.!]*$"
    r"|\bcustomers\s+(?:does|do|did)\s+(.+?)\s+(?:own|manage|handle|look\s+after)\b"
    r"|\baccount\s+(?:owner|manager)\s+(?:is\s+)?(.+?)\s*[?.!]*$|\b([A-Z][\w-]+(?:\s+[A-Z][\w-]+)?)'s\s+(?:customers"
    r"|accounts|clients)\b")
DEMONYMS = {
    "german": "DE", "french": "FR", "spanish": "ES", "italian": "IT", "dutch": "NL", "belgian": "BE", "austrian": "AT",
    "swiss": "CH", "polish": "PL", "czech": "CZ", "danish": "DK", "swedish": "SE", "norwegian": "NO", "finnish": "FI",
    "portuguese": "PT", "irish": "IE", "british": "GB", "hungarian": "HU", "slovak": "SK",
}
_DEMONYM = _rx(r"\b(" + "|".join(DEMONYMS) + r")\s+(?:customers|clients|accounts|buyers)\b")
_COUNTRY = _rx(r"\b(?:customers?|clients?|accounts?|buyers?)\s+(?:in|from|based\s+in"
               r"|located\s+in)\s+(?:the\s+)?([a-z][a-z ]+?)"
               r"\s*(?:[?.!,]|$|\bwith\b|\band\b)")
_PO_NUMBER = _rx(r"\bpo[\s-]?((?:19|20)\d\d)[\s/.-](\d{3,6})\b|\b(?:purchase\s+order|p\.?o\.?)\s*(?:number\s+|no\.?\s*"
                 r"|nr\.?\s*"
                 r"|#\s*)?(\d{3,6})\b|\bpurchase\s+order\s+(?:number\s+|no\.?\s*|nr\.?\s*|#\s*)?(\d{1,2})\s*[?.!]*$"
                 r"|(erp://purchase_order/\d{1,18})\b")
_INVOICE_SHORT = _rx(r"\binv\.?\s*(?:no\.?\s*|nr\.?\s*|number\s+)?#?\s*(\d{3,8})\b|(?:^|\s)#\s*(\d{3,8})\b"
                     # German: "RE 8827", "Rg.-Nr. 8827", "Re.Nr. 8827" (Rechnung), never a year ("re 2025 revenue")
                     r"|\b(?:re|rg)\.?(?:\s*-?\s*nr\.?)?\s*#?\s*(?!(?:19|20)\d\d\b)(\d{4,8})\b(?![.,/:-]\d)"
                     r"|\b(?:is|was|has)\s+(?:invoice\s+)?(\d{4,8})\s+(?:been\s+)?(?:fully\s+)?(?:paid|settled|due"
                     r"|overdue"
                     r"|open|outstanding|cleared)\b|\bshow\s+(?:me\s+)?(\d{4,8})\b"
                     r"|\b(?:which|what)\s+(?:invoice\s+)?is\s+(\d{4,8})\b")
_PAYABLES = _rx(r"\baccounts?\s+payable\b|\ba/p\b|\bap\s+(?:aging|ageing|balance|report|total|overdue)\b"
                r"|\bpayables?\b|\bap\s+(?:for|of|with|to|from)\b|\btotal\s+ap\b|^\s*ap\s+(?=\w)"
                r"|\b(?:overdue|open|unpaid|outstanding|due)\s+ap\b"
                r"|\bsupplier\s+invoices?\b|\b(?:open|unpaid)\s+(?:supplier\s+)?bills\b|\bbills?\s+(?:from"
                r"|to)\s+suppliers?\b"
                r"|\b(?:how\s+much|what)\s+do\s+we\s+(?:still\s+|currently\s+|now\s+)?owe\b"
                r"|\bwe\s+(?:still\s+|currently\s+|now\s+|already\s+)?owe\b|\bdo\s+we\s+owe\b")
_STOCK_VALUE = _rx(r"\b(?:inventory|stock)\s+(?:value|valuation|worth)\b|\bvalue\s+of\s+(?:our\s+"
                   r"|the\s+)?(?:inventory|stock)\b"
                   r"|\bworth\s+of\s+(?:our\s+)?(?:stock|inventory)\b|\bhow\s+much\s+is\s+(?:our\s+)?(?:inventory"
                   r"|stock)\s+worth\b")
_DRIVER_ASK = _rx(r"\b(?:top|biggest|largest|\d{1,2})\s+(?:\d{1,2}\s+)?(?:decliners|gainers|losers|winners|movers|fallers|risers)\b"
                  r"|^\W*drivers?\b|\bdrivers?\b[^?!]{0,60}\b(?:decliners|gainers|losers|winners|fallers|risers|growers"
                  r"|shrinkers)\b"
                  r"|\b(?:which|what|who)\b[^?.!]{0,40}\b(?:customers?|clients?)\b[^?.!]{0,40}"
                  r"\b(?:biggest|largest|most|greatest|sharpest|worst)\b[^?.!]{0,30}\b(?:drop|decline|decrease|fall"
                  r"|increase"
                  r"|growth|rise|change|gain|loss)\b|\b(?:biggest|largest)\s+(?:revenue\s+)?(?:drops?|declines?"
                  r"|decreases?|falls?"
                  r"|increases?|gains?|changes?|growth|rises?)\b"
                  r"|\bwho\s+(?:lost|gained|grew|dropped|declined)\s+(?:the\s+)?most\b"
                  r"|\bthe\s+\d{1,2}\s+(?:that|which|who)\s+(?:grew|rose|increased|gained|declined|dropped|fell"
                  r"|decreased|shrank|lost)\s+(?:the\s+)?most\b"
                  r"|\b(?:which|what|who)\b[^?.!]{0,40}\b(?:customers?|clients?)\b[^?.!]{0,30}\b(?:grew|rose"
                  r"|increased|gained"
                  r"|declined|dropped|fell|decreased|shrank|lost|changed)\b[^?.!]{0,20}\bmost\b")
_DOWN_WORDS = _rx(r"\b(?:drops?|dropped|declines?|declined|decreases?|decreased|falls?|fell|loss|losses|lost|shrank"
                  r"|worst|down|decliners?|losers?|shrinkers?|fallers?|draggers?)\b")
_UP_WORDS = _rx(r"\b(?:increases?|increased|growth|grew|rises?|rose|gains?|gained|jump|jumped|up|gainers?|winners?"
                r"|growers?|risers?)\b")
_NOW_VS = _rx(r"\band\s+(?:now|today|currently|at\s+present)\s*[?.!]*$"
              r"|\b(?:now|today|currently|at\s+present)\b[^?.!]{0,80}\b(?:compare|compared|vs\.?|versus|than|against"
              r"|and)\b"
              r"|\b(?:compare|compared|vs\.?|versus|than|against)\b[^?.!]{0,60}\b(?:now|today)\b")

COUNTRIES = {
    "germany": "DE", "france": "FR", "spain": "ES", "italy": "IT", "netherlands": "NL", "holland": "NL",
    "belgium": "BE", "austria": "AT", "switzerland": "CH", "poland": "PL", "czechia": "CZ", "czech republic": "CZ",
    "denmark": "DK", "sweden": "SE", "norway": "NO", "finland": "FI", "portugal": "PT", "ireland": "IE",
    "united kingdom": "GB", "uk": "GB", "britain": "GB", "great britain": "GB", "hungary": "HU", "slovakia": "SK",
    "luxembourg": "LU", "greece": "GR", "romania": "RO", "croatia": "HR", "slovenia": "SI",
}
_IN_COUNTRY = _rx(r"\b(?:in|from|based\s+in|located\s+in|customer\s+list|customers|clients)\s+(?:the\s+)?("
                  + "|".join(sorted(COUNTRIES, key=len, reverse=True))
                  + r")\b")
_INVOICE_WORDS = _rx(r"\b(?:invoices?|inv|paid|settled|cleared|status|due|open|outstanding|issued|details?"
                     r"|amount|balance|number|gross|net|tax|credited|payments?|show|look\s+up|pull\s+up|open\s+up)\b")
