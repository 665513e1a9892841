-- footnote-pg: the vocabulary the gate reads answers with.
--
-- One table, one row per word or phrase (lower case, words separated by one space; a phrase
-- matches the same words with any punctuation or spacing between them). Classes:
--   neutral    function words (the, is, of, ...): carry no statement, ignored
--   discourse  discourse markers (sure, here is, in short, ...): ignored; a sentence made only
--              of neutral and discourse words states nothing
--   word       a content word; canon is its canonical form, shared by its synonyms
--              (rose / increased / went up -> up); negated marks words that carry their own
--              negation (unverified -> verified, negated). Words that are not listed here are
--              content words too, with themselves as canon.
--   negator    not, no, never, ...: negates the next content word or figure of its clause
--   numeral    number words, ordinals and vague quantities (twelve, a dozen, both, several)
--   scale      thousand, million, k, bn, ...
--   currency   currency names, codes and symbols outside a figure
--   unit       units and rates (per month, annual, %, days, ...)
--   modifier   approximators and comparatives (about, over, more than, at least, ...)
--   sign       minus, negative, ...
-- Units and currencies spelled another way ("tage", "d" -> days; "eur" -> €) are listed in
-- footnote._unit_spellings(): a figure "104 days" may be written "104 Tage" or "104d", the same mark.
-- docs/statements.md explains how each class is used. Changing the vocabulary is a data change:
-- INSERT, UPDATE or DELETE here as the installer or footnote_owner.

CREATE TABLE footnote.lexicon (
    phrase  text PRIMARY KEY CHECK (phrase = lower(phrase) AND phrase !~ '^ | $|  '),
    class   text NOT NULL CHECK (class IN ('neutral', 'discourse', 'word', 'negator', 'numeral', 'scale',
                                           'currency', 'unit', 'modifier', 'sign')),
    canon   text,
    negated boolean NOT NULL DEFAULT false,
    CHECK ((class = 'word') = (canon IS NOT NULL))
);
COMMENT ON TABLE footnote.lexicon IS 'the words and phrases the gate reads answers with (see docs/statements.md)';

-- function words
INSERT INTO footnote.lexicon (phrase, class)
SELECT w, 'neutral' FROM unnest(ARRAY[
    'a', 'an', 'the', 'this', 'that', 'these', 'those', 'it', 'its', 'it''s', 'they', 'them', 'their', 'theirs',
    'there', 'there''s', 'he', 'she', 'his', 'her', 'we', 'us', 'our', 'you', 'your', 'who', 'whom', 'whose',
    'which', 'what', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'has', 'have', 'had', 'having',
    'do', 'does', 'did', 'of', 'in', 'on', 'at', 'for', 'with', 'by', 'from', 'to', 'into', 'as', 'and', 'or',
    'but', 'so', 'also', 'then', 'while', 'whereas', 'within', 'via', 'than', 'both of', '''s', 's',
    'currently', 'now', 'presently', 'at present', 'right now', 'at the moment', 'today', 'as it stands',
    'total', 'totals', 'totalling', 'totaling', 'a total of', 'in total', 'altogether', 'combined', 'amount',
    'amounts', 'amounting to', 'sum', 'respectively', 'namely', 'i.e', 'e.g', 'that is', 'including',
    'includes', 'comprising', 'in all', 'each of', 'which is', 'which are', 'listed',
    'shown', 'based on', 'on the basis of', 'stands at', 'stand at', 'standing at', 'stood at', 'comes to', 'come to', 'coming to', 'came to',
    'one of which', 'where', 'whereby', 'here', 'overall', 'such', 'still', 'yet', 'and also', 'as well',
    'as well as', 'in addition', 'additionally', 'moreover', 'furthermore', 'besides', 'in particular',
    'specifically', 'however', 'meanwhile', 'in turn', 'thereof', 'therein', 'per cent of'
]) AS w;

-- discourse markers
INSERT INTO footnote.lexicon (phrase, class)
SELECT w, 'discourse' FROM unnest(ARRAY[
    'sure', 'certainly', 'of course', 'okay', 'ok', 'alright', 'absolutely', 'here is', 'here''s', 'here are',
    'here you go', 'below is', 'below are', 'the answer', 'answer', 'summary', 'in summary', 'to summarize',
    'to summarise', 'in short', 'briefly', 'in brief', 'short answer', 'quick summary', 'let me know',
    'let me know if you need anything else', 'hope this helps', 'i hope this helps', 'happy to help',
    'anything else', 'as requested', 'as you asked', 'details', 'the details', 'detail', 'breakdown',
    'the breakdown', 'facts', 'key facts', 'the facts', 'the figures', 'the numbers', 'the following',
    'as follows', 'follows', 'see below', 'listed below', 'shown below', 'note', 'please note',
    'note that', 'in detail', 'per invoice', 'by invoice', 'invoice by invoice', 'broken down', 'broken down by',
    'in numbers', 'at a glance', 'great question', 'good question', 'thanks', 'thank you', 'i', 'me', 'my',
    'i found', 'found', 'looking at', 'according to', 'according to the records', 'the records show',
    'records show', 'the data shows', 'the data', 'data', 'records', 'the records', 'report', 'the report',
    'update', 'status', 'overview', 'an overview', 'the overview', 'result', 'the result', 'results', 'if',
    'need', 'anything', 'questions', 'any questions', 'further', 'more details', 'help', 'helps', 'hope',
    'let', 'know', 'glad', 'happy', 'i''m', 'i am', 'i''d', 'would you like', 'like', 'want', 'else',
    'feel free', 'to ask', 'ask', 'just ask', 'all the best', 'best regards', 'regards', 'cheers',
    'in a nutshell', 'bottom line', 'tl;dr', 'tldr', 'quick answer', 'direct answer', 'to answer your question',
    'as of now', 'why', 'here''s why', 'here is why', 'the reasons', 'reasons', 'the reason', 'because of the following',
    'behind this', 'the facts behind this', 'facts behind this', 'what this rests on', 'supporting facts',
    'the supporting facts', 'more precisely', 'to be precise', 'for reference', 'for context'
]) AS w;

-- content words and their canonical forms: synonyms share a canon
INSERT INTO footnote.lexicon (phrase, class, canon, negated)
SELECT w, 'word', c, n FROM (VALUES
    -- direction of a change
    ('rose', 'up', false), ('rise', 'up', false), ('rises', 'up', false), ('risen', 'up', false),
    ('rising', 'up', false), ('increased', 'up', false), ('increase', 'up', false), ('increases', 'up', false),
    ('increasing', 'up', false), ('an increase', 'up', false), ('grew', 'up', false), ('grow', 'up', false),
    ('grown', 'up', false), ('growth', 'up', false), ('growing', 'up', false), ('went up', 'up', false),
    ('gone up', 'up', false), ('go up', 'up', false), ('going up', 'up', false), ('up', 'up', false),
    ('higher', 'up', false), ('climbed', 'up', false), ('gained', 'up', false), ('gain', 'up', false),
    ('upward', 'up', false), ('moved up', 'up', false), ('jumped', 'up', false),
    ('fell', 'down', false), ('fall', 'down', false), ('falls', 'down', false), ('fallen', 'down', false),
    ('falling', 'down', false), ('decreased', 'down', false), ('decrease', 'down', false),
    ('decreases', 'down', false), ('a decrease', 'down', false), ('declined', 'down', false),
    ('decline', 'down', false), ('a decline', 'down', false), ('dropped', 'down', false), ('drop', 'down', false),
    ('a drop', 'down', false), ('drops', 'down', false), ('went down', 'down', false), ('gone down', 'down', false), ('down', 'down', false),
    ('lower', 'down', false), ('shrank', 'down', false), ('shrunk', 'down', false), ('slipped', 'down', false),
    ('downward', 'down', false), ('moved down', 'down', false), ('reduced', 'down', false),
    ('unchanged', 'unchanged', false), ('flat', 'unchanged', false), ('stable', 'unchanged', false),
    ('steady', 'unchanged', false), ('the same', 'unchanged', false), ('did not change', 'unchanged', false),
    ('change', 'change', false), ('changed', 'change', false), ('changes', 'change', false),
    ('difference', 'change', false), ('delta', 'change', false), ('changing', 'change', false),
    -- who owes whom
    ('owes', 'owes', false), ('owe', 'owes', false), ('owing', 'owes', false), ('owes us', 'owes', false),
    ('owe us', 'owes', false), ('owed by', 'owes', false), ('owed to us by', 'owes', false),
    ('is owed', 'owed to', false), ('are owed', 'owed to', false), ('owed', 'owed to', false),
    ('owed to', 'owed to', false), ('we owe', 'owed to', false), ('owe them', 'owed to', false),
    ('we have to pay', 'owed to', false), ('payable', 'owed to', false), ('credit balance', 'owed to', false),
    ('payables', 'owed to', false), ('accounts payable', 'owed to', false), ('we owe them', 'owed to', false),
    ('we still owe', 'owed to', false), ('owed to them', 'owed to', false), ('we are owing', 'owed to', false),
    ('owing us', 'owes', false), ('owed us', 'owes', false),
    ('they owe', 'owes', false), ('still owes', 'owes', false), ('owed to us', 'owes', false),
    ('schuldet', 'owes', false), ('schulden uns', 'owes', false), ('schuldet uns', 'owes', false),
    ('wir schulden', 'owed to', false), ('verbindlichkeiten', 'owed to', false), ('forderungen', 'receivables', false),
    -- who paid whom
    ('we paid', 'paid out', false), ('paid them', 'paid out', false), ('paid to them', 'paid out', false),
    ('we pay', 'paid out', false), ('payments to', 'paid out', false), ('paid us', 'paid', false),
    ('paid to us', 'paid', false), ('payments from', 'paid', false), ('received from', 'paid', false),
    -- due, overdue
    ('overdue', 'overdue', false), ('past due', 'overdue', false), ('late', 'overdue', false),
    ('in arrears', 'overdue', false), ('arrears', 'overdue', false), ('delinquent', 'overdue', false),
    ('past its due date', 'overdue', false), ('past the due date', 'overdue', false),
    ('beyond due', 'overdue', false), ('past-due', 'overdue', false), ('overdue to', 'owed to', false), ('overdue to us', 'owes', false),
    ('überfällig an', 'owed to', false), ('overdue towards', 'owed to', false), ('overdue to date', 'overdue', false),
    ('not yet due', 'overdue', true), ('not due', 'overdue', true), ('not overdue', 'overdue', true),
    ('current', 'current', false), ('on time', 'on time', false), ('punctual', 'on time', false),
    ('punctually', 'on time', false), ('pünktlich', 'on time', false), ('fristgerecht', 'on time', false),
    ('rechtzeitig', 'on time', false), ('zu spät', 'overdue', false), ('verspätet', 'overdue', false),
    ('verspätete', 'overdue', false), ('verspäteter', 'overdue', false), ('unpünktlich', 'overdue', false),
    ('due', 'due', false), ('due on', 'due', false), ('falls due', 'due', false), ('fell due', 'due', false),
    ('due date', 'due', false), ('was due', 'due', false), ('payable on', 'due', false),
    -- open, outstanding, paid
    ('open', 'open', false), ('outstanding', 'open', false), ('unresolved', 'open', false),
    ('unsettled', 'open', false), ('still open', 'open', false), ('pending', 'pending', false),
    ('awaiting', 'pending', false), ('closed', 'open', true), ('resolved', 'open', true),
    ('settled', 'paid', false), ('paid', 'paid', false), ('unpaid', 'paid', true), ('paid off', 'paid', false),
    ('credited', 'credited', false), ('credit', 'credited', false),
    -- comparisons
    ('above', 'above', false), ('exceeds', 'above', false), ('exceeding', 'above', false),
    ('higher than', 'above', false), ('below', 'below', false), ('beneath', 'below', false),
    ('lower than', 'below', false), ('short of', 'below', false), ('under it', 'below', false),
    ('largest', 'largest', false), ('biggest', 'largest', false), ('greatest', 'largest', false),
    ('most', 'largest', false), ('top', 'largest', false), ('highest', 'largest', false),
    ('leading', 'largest', false), ('main', 'largest', false), ('the bulk', 'largest', false),
    ('smallest', 'smallest', false), ('least', 'smallest', false), ('lowest', 'smallest', false),
    ('bottom', 'smallest', false), ('fewest', 'smallest', false),
    -- verification
    ('verified', 'verified', false), ('confirmed', 'verified', false), ('validated', 'verified', false),
    ('checked', 'verified', false), ('unverified', 'verified', true), ('unconfirmed', 'verified', true),
    ('not verified', 'verified', true), ('unchecked', 'verified', true),
    -- severity and risk
    ('high', 'high', false), ('severe', 'high', false), ('serious', 'high', false), ('elevated', 'high', false),
    ('medium', 'medium', false), ('moderate', 'medium', false), ('low', 'low', false), ('minor', 'low', false),
    ('risk', 'risk', false), ('risky', 'risk', false), ('at risk', 'at risk', false),
    -- periods relative to today
    ('last quarter', 'previous quarter', false), ('previous quarter', 'previous quarter', false),
    ('prior quarter', 'previous quarter', false), ('the quarter before', 'previous quarter', false),
    ('this quarter', 'this quarter', false), ('current quarter', 'this quarter', false),
    ('last year', 'previous year', false), ('previous year', 'previous year', false),
    ('prior year', 'previous year', false), ('this year', 'this year', false),
    ('current year', 'this year', false), ('last month', 'previous month', false),
    ('previous month', 'previous month', false), ('prior month', 'previous month', false),
    ('this month', 'this month', false), ('current month', 'this month', false),
    ('year to date', 'year to date', false), ('ytd', 'year to date', false), ('so far this year', 'year to date', false),
    ('next quarter', 'next', false), ('next year', 'next', false), ('next month', 'next', false),
    ('next week', 'next', false), ('yesterday', 'yesterday', false), ('tomorrow', 'next', false),
    ('soon', 'next', false), ('later', 'next', false),
    -- answer words
    ('yes', 'yes', false), ('correct', 'yes', false), ('indeed', 'yes', false),
    -- nouns and verbs of the answers
    ('invoice', 'invoice', false), ('invoices', 'invoice', false), ('bill', 'invoice', false),
    ('bills', 'invoice', false), ('invoiced', 'invoiced', false), ('billed', 'invoiced', false),
    ('credit note', 'credit note', false), ('credit notes', 'credit note', false),
    ('credit memo', 'credit note', false), ('credit memos', 'credit note', false),
    ('customer', 'customer', false), ('customers', 'customer', false), ('client', 'customer', false),
    ('clients', 'customer', false), ('supplier', 'supplier', false), ('suppliers', 'supplier', false),
    ('vendor', 'supplier', false), ('vendors', 'supplier', false),
    ('revenue', 'revenue', false), ('revenues', 'revenue', false), ('sales', 'revenue', false),
    ('turnover', 'revenue', false), ('gross sales', 'gross sales', false),
    ('receivables', 'receivables', false), ('receivable', 'receivables', false),
    ('accounts receivable', 'receivables', false), ('ar', 'receivables', false), ('a/r', 'receivables', false),
    ('days sales outstanding', 'dso', false), ('days of sales outstanding', 'dso', false), ('dso', 'dso', false),
    ('oldest', 'oldest', false), ('earliest', 'oldest', false), ('longest outstanding', 'oldest', false),
    ('longest overdue', 'oldest', false), ('most overdue', 'oldest', false),

    ('ticket', 'ticket', false), ('tickets', 'ticket', false), ('support ticket', 'ticket', false),
    ('support tickets', 'ticket', false), ('support case', 'ticket', false), ('support cases', 'ticket', false),
    ('cases', 'ticket', false), ('case', 'ticket', false), ('support', 'ticket', false),
    ('severity', 'severity', false), ('priority', 'severity', false),
    ('payment terms', 'terms', false), ('terms', 'terms', false), ('term', 'terms', false),
    ('credit terms', 'terms', false), ('agreed', 'agreed', false), ('contractual', 'agreed', false),
    ('account owner', 'account owner', false), ('account manager', 'account owner', false),
    ('owner', 'account owner', false), ('relationship manager', 'account owner', false),
    ('managed by', 'account owner', false), ('owned by', 'account owner', false),
    ('purchase order', 'purchase order', false), ('purchase orders', 'purchase order', false),
    ('po', 'purchase order', false), ('pos', 'purchase order', false),
    ('worth', 'worth', false), ('valued at', 'worth', false), ('with a value of', 'worth', false),
    ('expected', 'expected', false), ('expected on', 'expected', false), ('scheduled', 'expected', false),
    ('stock', 'stock', false), ('inventory', 'stock', false), ('on hand', 'stock', false),
    ('in stock', 'stock', false), ('stock on hand', 'stock', false),
    ('warehouse', 'warehouse', false), ('warehouses', 'warehouse', false), ('location', 'warehouse', false),
    ('locations', 'warehouse', false), ('site', 'warehouse', false), ('sites', 'warehouse', false),
    ('reorder level', 'reorder level', false), ('reorder point', 'reorder level', false),
    ('minimum stock level', 'reorder level', false), ('issued', 'issued', false), ('dated', 'issued', false),
    ('issue date', 'issued', false), ('gross', 'gross', false), ('net', 'net', false), ('tax', 'tax', false),
    ('vat', 'tax', false), ('payment', 'payment', false), ('payments', 'payment', false),
    ('pay', 'pay', false), ('paying', 'pay', false), ('account', 'account', false), ('accounts', 'account', false),
    ('bank account', 'account', false), ('ending', 'ending', false), ('ending in', 'ending', false),
    ('ends in', 'ending', false), ('request', 'request', false), ('requested', 'request', false),
    ('asks', 'request', false), ('asking', 'request', false), ('asked', 'request', false),
    ('phone', 'phone', false), ('telephone', 'phone', false), ('phone number', 'phone', false),
    ('number', 'number', false), ('on file', 'on file', false), ('on record', 'on file', false),
    ('registered', 'registered', false), ('domain', 'domain', false), ('sender', 'sender', false),
    ('since', 'since', false), ('before', 'before', false), ('after', 'after', false),
    ('interpretation', 'interpretation', false), ('an interpretation', 'interpretation', false),
    ('inference', 'interpretation', false), ('conclusion', 'interpretation', false),
    ('my interpretation', 'interpretation', false),
    ('assessment', 'interpretation', false), ('my assessment', 'interpretation', false),
    ('judgement', 'interpretation', false), ('judgment', 'interpretation', false), ('my view', 'interpretation', false),
    ('in my view', 'interpretation', false), ('opinion', 'interpretation', false), ('my opinion', 'interpretation', false),
    ('my reading', 'interpretation', false), ('recommendation', 'interpretation', false),
    ('my recommendation', 'interpretation', false), ('einschätzung', 'interpretation', false),
    ('interpretiert', 'interpretation', false), ('bewertung', 'interpretation', false),
    
    ('underlying', 'underlying', false), ('underlying facts', 'underlying', false),
    ('reading', 'interpretation', false), ('read as', 'reading', false),
    -- not paying on time, said the ways people say it (one canon: the words of the risk statement)
    ('not paying on time', 'paying late', false), ('not pay on time', 'paying late', false),
    ('not paid on time', 'paying late', false), ('paying late', 'paying late', false),
    ('pay late', 'paying late', false), ('late payment', 'paying late', false),
    ('late payments', 'paying late', false), ('late paying', 'paying late', false),
    ('delayed payment', 'paying late', false), ('delayed payments', 'paying late', false),
    ('verspätete zahlung', 'paying late', false), ('verspäteten zahlung', 'paying late', false),
    ('verspäteter zahlung', 'paying late', false),
    ('nicht pünktlich zahlt', 'paying late', false), ('nicht pünktlich zu zahlen', 'paying late', false),
    ('nicht pünktlich zahlen', 'paying late', false), ('nicht rechtzeitig zahlt', 'paying late', false),
    ('nicht rechtzeitig zu zahlen', 'paying late', false), ('verspätet zahlt', 'paying late', false),
    ('verspätet zu zahlen', 'paying late', false), ('spät zahlt', 'paying late', false),
    ('match', 'match', false), ('matches', 'match', false), ('matching', 'match', false),
    ('listed:', 'listed', false), ('there was no revenue', 'no revenue', false)
) AS v(w, c, n);

-- negators
INSERT INTO footnote.lexicon (phrase, class)
SELECT w, 'negator' FROM unnest(ARRAY[
    'not', 'no', 'never', 'none', 'nothing', 'nobody', 'neither', 'nor', 'without', 'n''t', 'cannot',
    'no longer', 'not any', 'none of', 'no one', 'nowhere', 'non'
]) AS w;

-- numbers in words, ordinals, vague quantities
INSERT INTO footnote.lexicon (phrase, class)
SELECT w, 'numeral' FROM unnest(ARRAY[
    'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
    'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty',
    'forty', 'fourty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety', 'hundred', 'hundreds', 'dozen',
    'dozens', 'a dozen', 'score', 'couple', 'a couple', 'pair', 'a pair', 'half', 'halves', 'a half',
    'a quarter of', 'a third', 'two thirds', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh',
    'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth', 'twentieth', 'hundredth', 'thousandth', 'once', 'twice',
    'thrice', 'double', 'doubled', 'triple', 'tripled', 'quadruple', 'single', 'both', 'several', 'many',
    'few', 'a few', 'multiple', 'numerous', 'various', 'handful', 'a handful', 'dozens of', 'countless',
    'a lot', 'lots', 'plenty', 'nil', 'nought', 'naught'
]) AS w;

-- scale words and suffixes
INSERT INTO footnote.lexicon (phrase, class)
SELECT w, 'scale' FROM unnest(ARRAY[
    'thousand', 'thousands', 'k', 'tsd', 'grand', 'million', 'millions', 'm', 'mn', 'mm', 'mio', 'billion',
    'billions', 'bn', 'b', 'mrd', 'trillion', 'trillions', 'tn', 'lakh', 'crore', 'in thousands',
    'in millions', 'in billions'
]) AS w;

-- currencies outside a figure
INSERT INTO footnote.lexicon (phrase, class)
SELECT w, 'currency' FROM unnest(ARRAY[
    '€', '$', '£', '¥', '₹', '₣', '¢', 'eur', 'euro', 'euros', 'usd', 'us$', 'dollar', 'dollars', 'us dollars',
    'gbp', 'pound', 'pounds', 'sterling', 'chf', 'franc', 'francs', 'jpy', 'yen', 'cny', 'yuan', 'rmb', 'sek',
    'nok', 'dkk', 'krona', 'kronor', 'krone', 'kroner', 'pln', 'zloty', 'cent', 'cents', 'pence', 'cad', 'aud',
    'inr', 'rupees', 'currency'
]) AS w;

-- units and rates
INSERT INTO footnote.lexicon (phrase, class)
SELECT w, 'unit' FROM unnest(ARRAY[
    '%', '‰', 'percent', 'per cent', 'pct', 'prozent', 'percentage', 'percentage points', 'points', 'basis points', 'bps',
    'per', 'a month', 'a year', 'a week', 'a day', 'monthly', 'weekly', 'daily', 'yearly', 'annually',
    'annual', 'annualised', 'annualized', 'per annum', 'p.a', 'pa', 'quarterly', 'hourly', 'per month',
    'per year', 'per week', 'per day', 'per quarter', 'hours', 'hour', 'days', 'day', 'weeks', 'week',
    'months', 'month', 'years', 'year', 'business days', 'working days', 'times', 'x', '×', 'pieces', 'pcs',
    'units', 'kg', 'tons', 'tonnes', 'litres', 'liters', 'meters', 'metres'
]) AS w;

-- approximators and comparatives
INSERT INTO footnote.lexicon (phrase, class)
SELECT w, 'modifier' FROM unnest(ARRAY[
    'about', 'around', 'approximately', 'approx', 'roughly', 'nearly', 'almost', 'close to', 'circa', 'ca',
    'some', 'over', 'under', 'more than', 'less than', 'fewer than', 'at least', 'at most', 'up to',
    'no more than', 'no less than', 'in excess of', 'upwards of', 'just over', 'just under', 'only', 'exactly',
    'precisely', 'an estimated', 'estimated', 'est', 'about the same as', '~', '≈', '<', '>', '≤', '≥', '±',
    'über', 'mehr als', 'weniger als', 'rund', 'etwa', 'ungefähr', 'knapp', 'beinahe',
    'mindestens', 'höchstens', 'bis zu', 'zirka', 'genau',
    'well over', 'well under', 'barely', 'merely', 'as much as', 'as little as', 'even', 'likely', 'probably',
    'possibly', 'perhaps', 'maybe', 'might', 'may', 'could', 'would', 'should', 'will', 'must', 'can',
    'expected to', 'projected', 'forecast', 'estimate', 'or more', 'or less', 'and above', 'and below', 'and up',
    'or so', 'odd', 'ish', 'give or take', 'plus or minus'
]) AS w;

-- signs
INSERT INTO footnote.lexicon (phrase, class)
SELECT w, 'sign' FROM unnest(ARRAY[
    'minus', 'negative', 'plus', 'positive', 'deficit', 'surplus', 'net loss', 'loss', 'losses'
]) AS w;

-- closed classes that carry no statement, English and German: pronouns and their contractions,
-- determiners, prepositions, conjunctions, auxiliaries and light verbs, the words of framing, offers and
-- closers ("Let me know if you'd like me to pull up the invoices"), headings and table headers ("Field",
-- "Value", "Details"). A word that can carry a claim (a measure, direction, party, state, judgement, cause,
-- advice or quantity) is not among them: it is a content word and must be one the statement says.
INSERT INTO footnote.lexicon (phrase, class)
SELECT DISTINCT w, 'neutral' FROM unnest(ARRAY[
    -- English pronouns, contractions, determiners
    'that''s', 'what''s', 'who''s', 'where''s', 'here''s that', 'let''s', 'we''re', 'they''re', 'you''re',
    'we''ve', 'i''ve', 'you''ve', 'they''ve', 'you''d', 'we''d', 'they''d', 'it''d', 'i''ll', 'we''ll',
    'you''ll', 'he''s', 'she''s', 'him', 'itself', 'themselves', 'ourselves', 'yourself', 'yourselves',
    'myself', 'one''s', 'ours', 'yours', 'mine', 'something', 'someone', 'this one', 'that one', 'these ones',
    'its own', 'their own', 'our own', 'the one', 'any', 'any of these', 'either', 'other', 'another',
    -- prepositions and conjunctions
    'across', 'spread across', 'spread over', 'covering', 'covers', 'cover', 'split across', 'among',
    'between', 'during', 'through', 'throughout', 'along with', 'together with', 'out of', 'off', 'onto',
    'upon', 'towards', 'toward', 'against', 'alongside', 'beside', 'regarding', 'concerning', 'about it',
    'with regard to', 'in terms of', 'as for', 'as to', 'when', 'whether', 'if so', 'that way', 'i.e.', 'e.g.', 'viz', 'plus that', 'along', 'across from',
    -- auxiliaries and light verbs
    'has been', 'have been', 'had been', 'is being', 'are being', 'gets', 'got', 'get', 'getting', 'goes',
    'went to', 'went', 'went from', 'goes from', 'make', 'makes', 'made up of', 'consists of', 'consisting of', 'contains', 'containing',
    'holds', 'holding', 'shows', 'showing', 'gives', 'giving', 'lists', 'listing', 'reads', 'says', 'said',
    'stated', 'states', 'reported', 'reports', 'recorded', 'on record as', 'come in at', 'comes in at',
    'came in at', 'coming in at', 'sits at', 'sat at', 'is at', 'are at', 'was at', 'were at', 'sitting at',
    'landed at', 'lands at', 'works out to', 'worked out to', 'adds up to', 'added up to', 'reaching', 'reached',
    'to reach', 'belongs to', 'belonging to', 'belong to', 'for the customer', 'for this customer',
    -- German
    'der', 'die', 'das', 'den', 'dem', 'des', 'ein', 'eine', 'einen', 'einem', 'einer', 'eines', 'und', 'oder',
    'aber', 'mit', 'von', 'vom', 'zu', 'zum', 'zur', 'für', 'fur', 'bei', 'beim', 'im', 'ins', 'am', 'an', 'auf',
    'aus', 'nach', 'per', 'ist', 'sind', 'war', 'waren', 'hat', 'haben', 'hatte', 'hatten', 'wird',
    'werden', 'wurde', 'wurden', 'es', 'sie', 'er', 'wir', 'uns', 'unser', 'unsere', 'unseren', 'ihr', 'ihre',
    'ihren', 'dies', 'diese', 'dieser', 'dieses', 'davon', 'dazu', 'damit', 'dabei', 'insgesamt', 'stand',
    'aktuell', 'derzeit', 'zurzeit', 'momentan', 'also', 'bzw', 'sowie', 'jeweils', 'nämlich', 'das heißt',
    'd.h', 'z.b', 'hier', 'dort', 'da', 'wie', 'als'
]) AS w
WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = w);

INSERT INTO footnote.lexicon (phrase, class)
SELECT DISTINCT w, 'discourse' FROM unnest(ARRAY[
    -- framing and politeness
    'sure thing', 'of course', 'no problem', 'happy to', 'glad to', 'gladly', 'thanks for asking',
    'thanks for checking', 'thanks for checking on this', 'thanks for the question', 'sorry', 'i''m sorry', 'quick', 'quickly', 'simply', 'basically', 'essentially', 'in other words', 'put simply', 'to put it simply', 'to be clear',
    'for clarity', 'for the record', 'just so you know', 'fyi', 'heads up', 'as a reminder', 'recap',
    'a recap', 'to recap', 'key points', 'key numbers', 'the key numbers', 'the key figures', 'key figures',
    'highlights', 'the highlights', 'takeaways', 'key takeaways', 'here it is', 'there you go',
    'there you have it', 'i looked this up', 'i looked into it', 'i looked it up', 'i checked', 'i pulled',
    'i pulled the numbers', 'looked this up', 'looked up', 'looked', 'for you', 'you', 'asked for',
    'you asked for', 'you asked', 'requested', 'what i found', 'here''s what i found', 'here is what i found',
    'what the records show', 'here''s what the records show', 'numbers', 'figures', 'figure',
    'that figure', 'this figure', 'these figures', 'the figure', 'the amount', 'the total', 'the count',
    'the number', 'let me summarise', 'let me summarize', 'summarise',
    'summarize', 'summarised', 'summarized', 'summing up', 'to sum up', 'all in all', 'in sum',
    -- offers and closers
    'let me know if you''d like', 'let me know if', 'if you''d like', 'if you like', 'if you want',
    'would you like me to', 'would you like', 'do you want me to', 'want me to', 'shall i', 'should i',
    'i can', 'i could', 'i can also', 'i''d be happy to', 'happy to help further', 'just ask', 'just let me know',
    'feel free to ask', 'don''t hesitate to ask', 'reach out', 'pull', 'pull up', 'pull the', 'dig',
    'dig into', 'dig deeper', 'drill down', 'drill into', 'look into', 'go into', 'go deeper', 'break down',
    'break this down', 'break it down', 'break them down', 'export', 'send', 'share', 'prepare', 'draft',
    'explain', 'more detail', 'more information', 'more info', 'further detail', 'useful', 'if useful',
    'helpful', 'if helpful', 'individual', 'individually', 'the individual', 'underlying records',
    'the underlying records', 'the list', 'list', 'the full list', 'full list', 'complete list',
    'these', 'any of these', 'something else', 'anything else i can help with', 'can help with', 'with',
    'check', 'to check', 'look', 'look at', 'best', 'kind regards',
    'warm regards', 'i hope that answers your question', 'that answers your question', 'answers your question',
    'your question', 'question', 'hope that helps',
    -- headings, labels and table headers
    'profile', 'customer profile', 'quarter', 'quarters', 'period', 'periods', 'date', 'dates', 'quantity',
    'qty', 'as far as these records go', 'as far as the records go', 'as far as we can tell', 'the first few',
    'first few', 'field', 'fields', 'value', 'values', 'measure', 'metric',
    'item', 'key', 'label', 'description', 'info', 'information', 'name', 'the name', 'context',
    'background', 'basis', 'based on these facts', 'based on the following facts', 'based on the facts',
    'behind it', 'the facts behind it', 'facts behind it', 'the reasoning', 'reasoning',
    'evidence', 'the evidence', 'supporting evidence', 'source', 'sources', 'the source', 'fact', '#',
    'rank',
    -- German
    'gerne', 'gern', 'klar', 'natürlich', 'selbstverständlich', 'kurz gesagt', 'kurz', 'zusammenfassung',
    'zusammengefasst', 'hier die zahlen', 'die zahlen', 'zahlen', 'hier sind', 'hier ist', 'ich hoffe',
    'das hilft', 'hoffe', 'hilft', 'sag bescheid', 'sagen sie bescheid', 'bescheid', 'wenn du mehr brauchst',
    'wenn sie mehr brauchen', 'wenn', 'du', 'brauchst', 'brauchen', 'ich', 'mir', 'mich', 'gesagt',
    'danke', 'vielen dank', 'viele grüße', 'grüße', 'beste grüße', 'details', 'überblick', 'übersicht',
    'laut', 'gemäß', 'den unterlagen', 'fakten', 'die fakten', 'zugrunde liegende fakten'
]) AS w
WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = w);

-- Voices: how people write in emails, chat, notes, tickets, minutes and letters, and German. A greeting,
-- salutation or signature carries no claim (footnote._grade reads those lines as discourse); the words of the
-- domain in German and the abbreviations of notes are content words with the canon of their English form.
INSERT INTO footnote.lexicon (phrase, class)
SELECT DISTINCT w, 'discourse' FROM unnest(ARRAY[
    -- greetings, salutations, sign-offs (English, German, Spanish, Italian)
    'hi', 'hello', 'hey', 'dear', 'good morning', 'good afternoon', 'morning', 'hi all', 'hi team', 'hello all',
    'dear all', 'dear colleagues', 'colleagues', 'team', 'everyone', 'folks', 'dear sir or madam',
    'sir or madam', 'to whom it may concern', 'thanks and regards', 'many thanks', 'best', 'best wishes',
    'yours', 'yours faithfully', 'yours sincerely', 'sincerely', 'have a good day', 'have a nice day',
    'have a great day', 'talk soon', 'speak soon', 'hallo', 'liebe', 'lieber', 'sehr geehrte', 'sehr geehrter',
    'sehr geehrte damen und herren', 'damen und herren', 'mit freundlichen grüßen', 'freundliche grüße',
    'guten tag', 'guten morgen', 'guten abend', 'herr', 'frau', 'mr', 'mrs', 'ms',
    'liebe grüße', 'lg', 'mfg', 'vg', 'hola', 'estimados', 'estimados señores', 'señores', 'un saludo',
    'saludos', 'gentile', 'gentile cliente', 'cordiali saluti', 'subject', 'betreff', 're', 'fw', 'fwd',
    '@channel', '@here', '@', 'channel',
    -- framing of a message, a note, a ticket or minutes
    'quick update', 'short update', 'an update', 'as discussed', 'as promised', 'following up', 'follow-up',
    'short one', 'quick one', 'just checked', 'i just checked', 'checked', 'before i answer', 'quick check first',
    'quick check', 'first', 'for your visit', 'visit', 'for your call', 'call with', 'the call', 'before your call',
    'your next call', 'on your next call', 'could you raise this with them', 'raise this', 'heads-up',
    'heads up before your call', 'handover', 'handover for next week', 'for next week', 'prep', 'prep for',
    'internal note', 'comment', 'comment by', 'crm', 'crm note', 'note on', 'account note', 'ticket comment',
    'minutes', 'meeting', 'meeting minutes', 'agenda', 'agenda item', 'was discussed', 'discussed',
    'status update', 'checked the account', 'close checklist', 'checklist', 'month-end', 'month-end close',
    'month-end minutes', 'board minutes', 'board', 'finance meeting', 'sales review', 'credit committee',
    'ar review', 'ar meeting', 'support sync', 'sync', 'treasury', 'legal sync', 'review', 'linked',
    'fraud check', 'payment check', 'invoice query', 'query', 'purchasing', 'purchasing ticket',
    'warehouse ticket', 'purchasing check', 'collections note', 'request closed', 'for the cfo', 'cfo',
    'one-pager', 'cfo one-pager', 'snapshot', 'quick snapshot', 'q', 'a', 'for the record', 'to sum up for the cfo',
    'here''s where we stand', 'where we stand', 'happy to check', 'happy to compare',
    'thanks for raising it', 'thanks for checking before paying', 'i understand the question',
    'thanks for checking in', 'glad to help', 'sorry', 'i''m afraid', 'afraid', 'qoq', 'quarter on quarter',
    'kurz zu', 'kurz', 'fyi:', 'info', 'hinweis', 'notiz', 'protokoll', 'besprechung'
]) AS w
WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = w);

INSERT INTO footnote.lexicon (phrase, class)
SELECT DISTINCT w, 'neutral' FROM unnest(ARRAY[
    'spread over', 'verteilt auf', 'verteilt', 'summe', 'zusammen', 'gesamt', 'bis', 'bis zu diesem tag',
    'zu diesem tag', 'gegenüber', 'liegen', 'lagen', 'lag', 'liegt', 'betrug', 'beträgt', 'gemacht', 'machen',
    'also', 'rund um', 'je', 'jede', 'jeder', 'sich', 'noch', 'bereits', 'schon', 'of which', 'right now',
    'that''s', 'so', 'i.e.', 'per', 'each', 'one each', 'vs', 'vs.', 'versus', 'against', '→', '->', '/', 'of the two',
    'the two', 'of them', 'between them', 'respectively', 'then', 'after that', 'remaining', 'remains',
    'still', 'on your account', 'on the account of', 'with us', 'on account of', 'from us', 'stehen', 'steht',
    'standen', 'seinem', 'seinen', 'seiner', 'seines', 'ihrem', 'ergibt sich', 'ergibt', 'ergeben'
]) AS w
WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = w);

INSERT INTO footnote.lexicon (phrase, class)
SELECT DISTINCT w, 'negator' FROM unnest(ARRAY['nicht', 'kein', 'keine', 'keinen', 'keiner', 'nichts', 'nein'])
AS w WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = w);

INSERT INTO footnote.lexicon (phrase, class)
SELECT w, 'unit' FROM unnest(ARRAY['d', 'tage', 'tagen', 'tag', 'stück', 'stk', 'pc', 'piece', 'monat', 'monate']) AS w
WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = w);

-- Other spellings of a unit or currency, with the one the answers print: the same mark, and a figure may
-- be written with either ("104 Tage" for "104 days", "43.805,00 EUR" for "43.805,00 €").
CREATE FUNCTION footnote._unit_spellings()
RETURNS TABLE (phrase text, canon text)
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    VALUES ('days', 'days'), ('d', 'days'), ('tage', 'days'), ('tagen', 'days'), ('day', 'day'), ('tag', 'day'),
           ('pcs', 'pcs'), ('pieces', 'pcs'), ('stück', 'pcs'), ('stk', 'pcs'), ('pc', 'pcs'),
           ('€', '€'), ('eur', '€'), ('euro', '€'), ('euros', '€'), ('month', 'month'), ('monat', 'month'),
           ('months', 'months'), ('monate', 'months'), ('%', '%'), ('pct', '%'), ('percent', '%'),
           ('per cent', '%'), ('prozent', '%')
$$;

INSERT INTO footnote.lexicon (phrase, class, canon, negated)
SELECT w, 'word', c, n FROM (VALUES
    -- abbreviations of notes and chat
    ('inv', 'invoice', false), ('invs', 'invoice', false), ('o s', 'open', false), ('os', 'open', false),
    ('ap', 'owed to', false), ('a p', 'owed to', false), ('rev', 'revenue', false), ('cn', 'credit note', false),
    ('cns', 'credit note', false), ('exp', 'expected', false), ('lvl', 'reorder level', false),
    ('reorder lvl', 'reorder level', false), ('reorder', 'reorder level', false), ('wh', 'warehouse', false),
    ('acct', 'account', false), ('issue', 'issued', false), ('owner', 'account owner', false), ('amt', 'amount', false),
    ('customer', 'customer', false), ('cust', 'customer', false), ('supp', 'supplier', false),
    ('od', 'overdue', false), ('o d', 'overdue', false), ('δ', 'change', false),
    ('strongest month', 'largest', false), ('weakest month', 'smallest', false),
    -- German words of the domain
    ('überfällig', 'overdue', false), ('überfällige', 'overdue', false), ('überfälligen', 'overdue', false),
    ('überfälliger', 'overdue', false), ('überfälligem', 'overdue', false), ('rückständig', 'overdue', false),
    ('rechnung', 'invoice', false), ('rechnungen', 'invoice', false), ('lieferantenrechnung', 'invoice', false),
    ('lieferantenrechnungen', 'invoice', false), ('offen', 'open', false), ('offene', 'open', false),
    ('offenen', 'open', false), ('offener', 'open', false), ('offenes', 'open', false), ('posten', 'invoice', false),
    ('offene posten', 'open', false), ('älteste', 'oldest', false), ('ältesten', 'oldest', false),
    ('älteste rechnung', 'oldest', false), ('größte', 'largest', false), ('größter', 'largest', false),
    ('größten', 'largest', false), ('größtes', 'largest', false), ('kleinste', 'smallest', false),
    ('kleinster', 'smallest', false), ('stärkster', 'largest', false), ('stärkste', 'largest', false),
    ('umsatzstärkster', 'largest', false), ('umsatzstärkste', 'largest', false),
    ('umsatz', 'revenue', false), ('umsätze', 'revenue', false), ('bruttoumsatz', 'gross sales', false),
    ('stieg', 'up', false), ('gestiegen', 'up', false), ('steigt', 'up', false), ('höher', 'up', false),
    ('sank', 'down', false), ('gesunken', 'down', false), ('fiel', 'down', false), ('gefallen', 'down', false),
    ('sinkt', 'down', false), ('niedriger', 'down', false), ('gutschrift', 'credit note', false),
    ('gutschriften', 'credit note', false), ('kunde', 'customer', false), ('kunden', 'customer', false),
    ('lieferant', 'supplier', false), ('lieferanten', 'supplier', false), ('bestellung', 'purchase order', false),
    ('bestellungen', 'purchase order', false), ('bestand', 'stock', false), ('lagerbestand', 'stock', false),
    ('lager', 'warehouse', false), ('lagern', 'warehouse', false), ('meldebestand', 'reorder level', false),
    ('zahlung', 'payment', false), ('zahlungen', 'payment', false), ('bezahlt', 'paid', false),
    ('gezahlt', 'paid', false), ('beglichen', 'paid', false), ('beglichenen', 'paid', false),
    ('fällig', 'due', false), ('fälligkeit', 'due', false), ('nach fälligkeit', 'overdue', false),
    ('brutto', 'gross', false), ('netto', 'net', false), ('steuer', 'tax', false), ('ausgestellt', 'issued', false),
    ('erwartet', 'expected', false), ('risiko', 'risk', false), ('hohes', 'high', false), ('hoch', 'high', false),
    ('hohe', 'high', false), ('hoher', 'high', false), ('hohem', 'high', false), ('hoher priorität', 'high', false),
    ('geringes', 'low', false), ('gering', 'low', false), ('niedrig', 'low', false), ('niedriges', 'low', false),
    ('mittel', 'medium', false), ('priorität', 'severity', false), ('zahlungsziel', 'terms', false),
    ('kundenbetreuer', 'account owner', false), ('kundenbetreuerin', 'account owner', false),
    ('kreditoren', 'owed to', false), ('geschuldet', 'owed to', false), ('schulden', 'owed to', false),
    ('seit', 'since', false), ('verifiziert', 'verified', false), ('nicht verifiziert', 'verified', true),
    ('im wert von', 'worth', false), ('interpretation', 'interpretation', false),
    ('eine interpretation', 'interpretation', false), ('als interpretation', 'interpretation', false),
    ('empfehlung', 'interpretation', false), ('prognose', 'forecast', false), ('prognosen', 'forecast', false),
    ('ja', 'yes', false),
    -- the words of a payment decision in German, with the canons of the English words the template says
    ('konto', 'account', false), ('kontos', 'account', false), ('bankkonto', 'account', false),
    ('neue', 'new', false), ('neues', 'new', false), ('neuen', 'new', false), ('neu', 'new', false),
    ('alle', 'all', false), ('endung', 'ending', false), ('endend auf', 'ending', false),
    ('telefonnummer', 'phone', false), ('hinterlegte', 'on file', false), ('hinterlegten', 'on file', false),
    ('zurückrufen', 'call', false), ('anrufen', 'call', false), ('bevor', 'before', false), ('vor', 'before', false),
    ('bankdaten', 'bank', false), ('bankverbindung', 'bank', false), ('geändert', 'change', false),
    ('ändern', 'change', false), ('geänderte', 'change', false), ('anfrage', 'request', false),
    ('verlangt', 'request', false), ('fordert', 'request', false), ('absender', 'sender', false),
    ('absenders', 'sender', false), ('registriert', 'registered', false), ('halten', 'hold', false),
    ('zurückhalten', 'hold', false), ('anhalten', 'hold', false), ('e mail', 'email', false), ('mail', 'email', false),
    -- superlatives and orderings, checked against the rows of the calls (footnote._ordering_holds)
    ('newest', 'newest', false), ('latest', 'newest', false), ('most recent', 'newest', false),
    ('older', 'oldest', false), ('the older one', 'oldest', false), ('newer', 'newest', false),
    ('larger', 'largest', false), ('bigger', 'largest', false), ('smaller', 'smallest', false),
    ('the larger', 'largest', false), ('the smaller', 'smallest', false), ('strongest', 'largest', false),
    ('best', 'largest', false), ('best month', 'largest', false), ('weakest', 'smallest', false),
    ('leads', 'largest', false), ('led', 'largest', false), ('#1', 'largest', false), ('number one', 'largest', false),
    -- a judgement or a prediction: what a refusal declines to give, and no call supports
    ('justified', 'judged', false), ('advisable', 'judged', false), ('warranted', 'judged', false),
    ('a good idea', 'judged', false), ('makes sense', 'judged', false), ('looks justified', 'judged', false),
    ('expect', 'predicted', false), ('expects', 'predicted', false), ('to beat', 'predicted', false),
    ('beat', 'predicted', false), ('outperform', 'predicted', false), ('will be', 'predicted', false),
    ('is going to', 'predicted', false), ('are going to', 'predicted', false),
    ('voraussichtlich', 'predicted', false), ('vermutlich', 'predicted', false), ('wahrscheinlich', 'predicted', false),
    ('erwarten', 'predicted', false), ('lohnt sich', 'judged', false), ('lohnt', 'judged', false),
    ('lieber', 'judged', false), ('besser', 'judged', false), ('sinnvoll', 'judged', false), ('ratsam', 'judged', false),
    ('mehr', 'more', false), ('weniger', 'less', false),
    -- a majority is a share, not the largest one: not checked against the rows, so it blocks
    ('most of them', 'majority', false), ('most of it', 'majority', false), ('most of', 'majority', false),
    ('the majority', 'majority', false), ('majority', 'majority', false), ('the bulk of', 'majority', false),
    ('ahead of', 'ahead of', false), ('just ahead of', 'ahead of', false), ('clearly ahead of', 'ahead of', false),
    ('followed by', 'ahead of', false), ('behind', 'behind', false), ('just behind', 'behind', false),
    ('right behind', 'behind', false), ('followed', 'behind', false), ('knapp vor', 'ahead of', false)
) AS v(w, c, n) WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = v.w);

-- Framing, salutations and headings of emails, chat and reports, and German function words (closed classes:
-- none of them can carry a claim). Words that can (measures, directions, judgements, causes, advice,
-- quantities, periods) are not here: they stay content words that the statement must say.
INSERT INTO footnote.lexicon (phrase, class)
SELECT DISTINCT w, 'discourse' FROM unnest(ARRAY[
    -- framing of a message or a report
    'please find', 'please find below', 'please find attached', 'please find the figures below',
    'please find the numbers below', 'find the figures below', 'the figures below', 'the numbers below',
    'please see below', 'see the figures below', 'please', 'pls', 'as requested below', 're your question', 'look up', 'look it up',
    'look this up', 'look that up', 'can look up', 'i can look up', 'what i can look up',
    're:', 'executive summary', 'exec summary', 'management summary', 'key point', 'key points', 'the key point',
    'tl', 'dr', 'brgds', 'rgds', 'thx', 'ty', 'br', 'thanks and best', 'thanks again', 'ciao', 'gruß',
    'viele grüsse', 'grüsse', 'beste grüsse', 'kind regards', 'hey there', 'hi there', 'quick note', 'short note',
    'a quick one', 'fyi only', 'for info', 'for your information', 'as asked', 'per your request', 'here goes',
    -- German pronouns, articles, particles
    'mein', 'meine', 'meinen', 'meiner', 'meinem', 'dein', 'deine', 'euer', 'eure', 'ihnen', 'dir', 'dich',
    'man', 'jetzt', 'gerade', 'heute', 'hiermit', 'anbei', 'unten', 'folgende', 'folgenden', 'wie folgt',
    'kurzes update', 'kurzer stand', 'zur info', 'zur information', 'bitte', 'schöne grüße', 'schönen gruß'
]) AS w
WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = w);

INSERT INTO footnote.lexicon (phrase, class)
SELECT DISTINCT w, 'neutral' FROM unnest(ARRAY[
    'brought in', 'bring in', 'brings in', 'came to', 'landed at', 'closed at', 'closed out at', 'ended at',
    'bucket', 'buckets', 'aging bucket', 'age bucket', 'band', 'bracket', 'zum', 'zur', 'ob', 'dass',
    'sowie', 'bzw.', 'beziehungsweise', 'jeweils', 'circa der', 'welche', 'welcher', 'welches', 'dessen', 'deren'
]) AS w
WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = w);

INSERT INTO footnote.lexicon (phrase, class, canon, negated)
SELECT w, 'word', c, n FROM (VALUES
    ('avg', 'average', false), ('avg.', 'average', false), ('on avg', 'average', false), ('on average', 'average', false),
    ('average', 'average', false), ('im schnitt', 'average', false), ('durchschnittlich', 'average', false),
    ('im durchschnitt', 'average', false)
) AS v(w, c, n) WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = v.w);

-- German words of the domain and of relative periods, with the canon of their English form.
INSERT INTO footnote.lexicon (phrase, class, canon, negated)
SELECT w, 'word', c, n FROM (VALUES
    ('unter', 'below', false), ('liegt unter', 'below', false), ('liegen unter', 'below', false),
    ('hohen', 'high', false), ('hohes risiko', 'high', false), ('artikel', 'item', false),
    ('am meisten', 'largest', false), ('die meisten', 'majority', false),
    ('letzten monat', 'previous month', false), ('im letzten monat', 'previous month', false),
    ('letzter monat', 'previous month', false), ('vormonat', 'previous month', false),
    ('letztes quartal', 'previous quarter', false), ('im letzten quartal', 'previous quarter', false),
    ('letzten quartal', 'previous quarter', false), ('vorquartal', 'previous quarter', false),
    ('letztes jahr', 'previous year', false), ('vorjahr', 'previous year', false),
    ('dieses jahr', 'this year', false), ('in diesem jahr', 'this year', false), ('dieses quartal', 'this quarter', false)
) AS v(w, c, n) WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = v.w);

INSERT INTO footnote.lexicon (phrase, class)
SELECT w, 'neutral' FROM unnest(ARRAY['es gibt', 'gibt', 'gab', 'es gab']) AS w
WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = w);

-- What a refusal or a clarification talks about (the question, the system, a decision, the names that match,
-- the currency), English and German: nouns of the conversation that carry no figure and no fact. Converting
-- and forecasting stay content words (an answer that says its amounts were converted, or forecast, says more
-- than the calls).
INSERT INTO footnote.lexicon (phrase, class)
SELECT DISTINCT w, 'discourse' FROM unnest(ARRAY[
    'unfortunately', 'sadly', 'leider', 'question', 'questions', 'frage', 'fragen', 'decision', 'decisions',
    'entscheidung', 'entscheidungen', 'system', 'systems', 'systeme', 'operation', 'operations', 'operationen',
    'names', 'namen', 'verschiedenes', 'weather', 'wetter', 'scope', 'out of scope', 'topic', 'thema', 'themen'
]) AS w
WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = w);

INSERT INTO footnote.lexicon (phrase, class)
SELECT w, c FROM (VALUES ('betrag', 'neutral'), ('beträge', 'neutral'), ('währung', 'currency'), ('währungen', 'currency'))
    AS v(w, c)
WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = v.w);

INSERT INTO footnote.lexicon (phrase, class)
SELECT DISTINCT w, c FROM (VALUES
    ('aging', 'discourse'), ('ageing', 'discourse'), ('aging report', 'discourse'), ('age analysis', 'discourse'),
    ('altersstruktur', 'discourse'), ('behaviour', 'discourse'), ('behavior', 'discourse'),
    ('zahlungsverhalten', 'discourse'), ('count', 'neutral'), ('number of', 'neutral'), ('anzahl', 'neutral'),
    ('position', 'neutral'), ('positionen', 'neutral'), ('quartal', 'discourse'), ('zeitraum', 'discourse'),
    ('jahr', 'unit'), ('um', 'neutral'), ('customer number', 'neutral'), ('kundennummer', 'neutral')
) AS v(w, c)
WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = v.w);

INSERT INTO footnote.lexicon (phrase, class, canon, negated)
SELECT w, 'word', c, false FROM (VALUES
    ('forecasts', 'forecast'), ('vorhersage', 'forecast'), ('vorhersagen', 'forecast'), ('prognosen', 'forecast'),
    ('conversion', 'converted'), ('converted', 'converted'), ('convert', 'converted'), ('umrechnung', 'converted'),
    ('umgerechnet', 'converted'), ('treffer', 'match'), ('unverändert', 'unchanged'),
    ('betreuer', 'account owner'), ('betreuerin', 'account owner'), ('kundenbetreuer', 'account owner'),
    ('kundenbetreuerin', 'account owner'), ('ansprechpartner', 'account owner'), ('ansprechpartnerin', 'account owner'),
    -- a balance is what is open, unless the words say which part of it
    ('balance', 'open'), ('open balance', 'open'), ('outstanding balance', 'open'), ('saldo', 'open'),
    ('offener saldo', 'open'), ('overdue balance', 'overdue'), ('overdue amount', 'overdue'),
    ('überfälliger saldo', 'overdue'), ('balances', 'open'), ('open balances', 'open'),
    ('outstanding balances', 'open'), ('overdue balances', 'overdue'), ('overdue amounts', 'overdue'),
    -- "547 Tage über Fälligkeit", "fällig seit 534 Tagen": past due
    ('über fälligkeit', 'overdue'), ('über fällig', 'overdue'), ('fällig seit', 'overdue'),
    ('zahlungsbedingungen', 'terms'), ('guthaben', 'credit'), ('applied', 'applied'),
    ('verrechnet', 'applied'), ('angerechnet', 'applied'), ('zugeordnet', 'applied')
) AS v(w, c) WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = v.w);

-- The words that can change what a statement means, English and German, as content words (each its own canon,
-- so that it must be one the statement says, as any word the lexicon does not know): quantifiers, evaluatives,
-- modality and prediction, direction and collection, comparison, causation, advice and action, and the states
-- and events of a credit relationship (dispute, fraud, insolvency). footnote._grade reads a word the lexicon does
-- not know as discourse when it stands outside every clause holding a figure; a word listed here blocks anywhere.
INSERT INTO footnote.lexicon (phrase, class, canon)
SELECT DISTINCT w, 'word', CASE WHEN w ~ '''s$' THEN left(w, -2)
                                WHEN length(w) > 3 AND w ~ '[^s]s$' AND w !~ '(us|is|ss)$' THEN left(w, -1)
                                ELSE w END
FROM unnest(ARRAY[
    -- quantifiers and frequency
    'all', 'all of', 'all of them', 'every', 'everything', 'everyone', 'everybody', 'entire', 'entirely', 'whole',
    'wholly', 'mostly', 'mainly', 'largely', 'primarily', 'predominantly', 'chiefly', 'partly', 'partially',
    'fully', 'completely', 'totally', 'always', 'usually', 'often', 'frequently', 'rarely', 'seldom', 'sometimes',
    'occasionally', 'generally', 'typically', 'normally', 'constantly', 'repeatedly', 'regularly', 'consistently',
    'again', 'exclusively', 'solely', 'alone', 'sole', 'nearly all', 'almost all', 'hardly any', 'virtually',
    'sämtliche', 'sämtlich', 'gesamte', 'gesamten', 'ganz', 'ganze', 'ganzen', 'immer', 'meist', 'meistens',
    'überwiegend', 'hauptsächlich', 'größtenteils', 'teilweise', 'vollständig', 'komplett', 'stets', 'oft',
    'häufig', 'selten', 'manchmal', 'regelmäßig', 'wieder', 'erneut', 'ausschließlich', 'allein', 'lediglich',
    'jedes mal', 'immer wieder',
    -- evaluatives and judgements
    'good', 'bad', 'great', 'poor', 'poorly', 'fine', 'excellent', 'terrible', 'awful', 'healthy', 'unhealthy',
    'strong', 'weak', 'solid', 'sound', 'robust', 'fragile', 'shaky', 'critical', 'critically', 'concerning',
    'concern', 'concerns', 'concerned', 'worrying', 'worrisome', 'worried', 'worry', 'alarming', 'alarm',
    'troubling', 'troubled', 'problematic', 'problem', 'problems', 'dangerous', 'danger', 'safe', 'safely',
    'unsafe', 'secure', 'insecure', 'reliable', 'unreliable', 'trustworthy', 'untrustworthy', 'trusted', 'trust',
    'reputable', 'suspicious', 'suspect', 'dubious', 'questionable', 'fishy', 'fraud', 'fraudulent',
    'fraudster', 'scam', 'phishing', 'fake', 'forged', 'genuine', 'legitimate', 'illegitimate', 'compromised',
    'hacked', 'impersonation', 'insolvent', 'insolvency', 'bankrupt', 'bankruptcy', 'default', 'defaulted',
    'defaulting', 'struggling', 'struggle', 'distressed', 'distress', 'liquidity', 'cash flow', 'cashflow',
    'solvent', 'creditworthy', 'creditworthiness', 'credit risk', 'credit limit', 'limit', 'exposure', 'exposed',
    'significant', 'significantly', 'substantial', 'substantially', 'considerable', 'considerably', 'huge',
    'massive', 'enormous', 'large', 'big', 'small', 'tiny', 'modest', 'negligible', 'material', 'immaterial',
    'marginal', 'minimal', 'acceptable', 'unacceptable', 'reasonable', 'unreasonable', 'normal', 'abnormal',
    'unusual', 'usual', 'typical', 'atypical', 'unexpected', 'surprising', 'surprisingly',
    'excessive', 'urgent', 'urgently', 'important', 'importantly', 'crucial', 'vital', 'essential',
    'worse', 'worst', 'better', 'improved', 'improving', 'improvement', 'deteriorated',
    'deteriorating', 'deterioration', 'worsened', 'worsening', 'recovered', 'recovering', 'recovery',
    'on track', 'behind schedule', 'ahead of schedule', 'under control', 'out of control', 'in good shape',
    'in bad shape', 'a concern', 'red flag', 'red flags', 'warning sign', 'warning', 'caution', 'careful',
    'cautious', 'vigilant', 'attention', 'watch', 'watchlist', 'watch list', 'hot', 'cold', 'record',
    'overstocked', 'understocked', 'overstock', 'overstocking', 'excess', 'shortfall', 'out of stock',
    'sold out', 'backordered', 'backorder', 'overdrawn', 'overextended', 'overleveraged', 'overexposed',
    'underperforming', 'outperforming', 'overloaded', 'stretched', 'tight', 'comfortable', 'sufficient',
    'insufficient', 'enough', 'plenty of', 'too much', 'too little', 'too many', 'too few', 'too high',
    'too low', 'ideal', 'optimal', 'perfect', 'impressive', 'disappointing', 'remarkable', 'notable',
    'noteworthy', 'exceptional', 'outstanding performance', 'strongest ever', 'all time', 'historic',
    'überbestand', 'zu viel', 'zu wenig', 'ausreichend', 'knapp bemessen', 'ausverkauft', 'lieferrückstand',
    'gut', 'gute', 'guter', 'gutes', 'guten', 'schlecht', 'schlechte', 'schlechtes', 'gesund',
    'gesunde', 'ungesund', 'kritisch', 'kritische', 'kritischer', 'bedenklich', 'besorgniserregend', 'besorgt',
    'sorge', 'sorgen', 'gefährlich', 'gefahr', 'sicher', 'sichere', 'unsicher', 'stark', 'starke', 'schwach',
    'schwache', 'solide', 'problematisch', 'probleme', 'auffällig', 'verdächtig', 'betrug',
    'betrügerisch', 'gefälscht', 'echt', 'seriös', 'unseriös', 'insolvenz', 'zahlungsunfähig',
    'pleite', 'konkurs', 'zahlungsausfall', 'ausfall', 'bonität', 'kreditlimit', 'dringend',
    'wichtig', 'ungewöhnlich', 'erheblich', 'erhebliche', 'deutlich', 'deutliche', 'groß', 'große',
    'großer', 'klein', 'kleine', 'akzeptabel', 'unproblematisch', 'unkritisch', 'zuverlässig', 'unzuverlässig',
    'verbessert', 'verschlechtert', 'verschlechterung', 'warnsignal', 'vorsicht', 'vorsichtig',
    -- assurance: what was done to the figures
    'audited', 'audit', 'unaudited', 'reviewed', 'certified', 'reconciled', 'double-checked', 'double checked',
    'signed off', 'accurate', 'final', 'preliminary', 'provisional', 'official', 'complete', 'incomplete',
    'estimated', 'approximate', 'rounded', 'exact', 'geprüft', 'testiert', 'abgestimmt', 'vorläufig',
    'endgültig', 'vollständig geprüft', 'gerundet', 'unknown', 'unbekannt',
    -- modality, certainty and prediction
    'unlikely', 'historically', 'in our experience', 'from experience', 'erfahrungsgemäß', 'aus erfahrung', 'certain', 'certainty', 'uncertain', 'definitely', 'surely', 'clearly', 'obviously', 'evidently',
    'apparently', 'presumably', 'seems', 'seem', 'seemed', 'seemingly', 'appears', 'appear', 'appeared',
    'suggests', 'suggest', 'suggested', 'indicates', 'indicate', 'indicated', 'indication', 'implies', 'imply',
    'signals', 'signal', 'means', 'meaning', 'predict', 'predicts', 'predicted', 'prediction', 'projection',
    'projections', 'anticipate', 'anticipated', 'going to', 'gonna', 'shall', 'ought', 'ought to', 'bound to',
    'guaranteed', 'guarantee', 'assume', 'assumed', 'assumption', 'believe', 'believed', 'think', 'thinks',
    'doubt', 'doubtful', 'hopefully', 'promised', 'promise', 'promises', 'committed', 'commitment', 'intends',
    'intend', 'plans', 'planned', 'plan', 'soll', 'sollte', 'sollten', 'sollen', 'muss', 'müssen', 'müsste',
    'könnte', 'könnten', 'kann', 'können', 'dürfte', 'dürften', 'wohl', 'sicherlich', 'bestimmt', 'offenbar',
    'offensichtlich', 'anscheinend', 'scheint', 'scheinen', 'deutet', 'deuten', 'hindeutet', 'möglicherweise',
    'eventuell', 'vielleicht', 'wahrscheinlichkeit', 'zugesagt', 'versprochen', 'geplant', 'glaube', 'denke',
    -- direction, payment and collection
    'due to', 'receive', 'received', 'receiving', 'collect', 'collected', 'collecting', 'collection',
    'collections', 'collectible', 'uncollectible', 'recoverable', 'unrecoverable', 'refund', 'refunded',
    'refunds', 'reimburse', 'reimbursed', 'charge', 'charged', 'charges', 'write off', 'written off',
    'write-off', 'writeoff', 'bad debt', 'lend', 'lent', 'borrow', 'borrowed', 'loan', 'debt', 'debts',
    'debtor', 'debtors', 'creditor', 'creditors', 'in our favour', 'in our favor', 'in their favour',
    'in their favor', 'prepaid', 'prepayment', 'advance', 'deposit', 'transfer', 'transferred', 'wire', 'wired',
    'remit', 'remitted', 'remittance', 'settle', 'pays', 'pays us', 'pays late', 'refused',
    'refuses', 'refuse', 'failed', 'fails', 'fail', 'failure', 'missed', 'miss', 'withheld', 'withholding',
    'schuldig', 'bezahlen', 'zahlen', 'zahlt', 'zahlte', 'zahlten', 'erhalten', 'eingegangen', 'einziehen',
    'eingezogen', 'mahnung', 'mahnungen', 'gemahnt', 'inkasso', 'abschreiben', 'abgeschrieben', 'abschreibung',
    'forderung', 'erstattet', 'erstattung', 'überwiesen', 'überweisung', 'gutgeschrieben', 'zahlungsverzug',
    'verzug', 'im verzug', 'verweigert', 'säumig',
    -- comparison
    'less', 'fewer', 'greater', 'compared', 'compared to', 'compared with', 'comparison', 'relative to',
    'exceed', 'exceeded', 'outpaced', 'outpace', 'lag', 'lags', 'lagging', 'trails', 'trailing', 'ahead',
    'similar', 'similarly', 'different', 'differs', 'equal', 'equals', 'equally', 'equivalent', 'halved',
    'outperformed', 'underperformed', 'beats', 'beaten', 'record high', 'record low', 'peak', 'peaked',
    'größer', 'kleiner', 'schlechter', 'gleich', 'gleiche', 'ähnlich', 'verglichen', 'im vergleich',
    'vergleich', 'übertrifft', 'übertroffen', 'halbiert', 'verdoppelt', 'rekord', 'höchststand', 'tiefststand',
    -- causation and consequence
    'because', 'because of', 'reason', 'motive', 'waiting', 'wait', 'waits', 'waiting for', 'owing to', 'as a result', 'as a result of', 'result of',
    'resulting', 'resulted', 'caused', 'causes', 'cause', 'causing', 'driven by', 'drove', 'driver', 'drivers',
    'drive', 'led to', 'lead to', 'leads to', 'thanks to', 'therefore', 'thus', 'hence', 'consequently',
    'consequence', 'so that', 'which means', 'explains', 'explained', 'explanation', 'attributable',
    'attributed', 'stems from', 'stem from', 'reflects', 'reflecting', 'reflected', 'contributed', 'contributes',
    'contribution', 'impact', 'impacted', 'affected', 'effect', 'weil', 'wegen', 'aufgrund', 'auf grund',
    'deshalb', 'daher', 'deswegen', 'darum', 'folglich', 'somit', 'dadurch', 'verursacht', 'ursache', 'grund',
    'getrieben', 'zurückzuführen', 'infolge', 'dank', 'liegt an', 'führt', 'führte', 'geführt',
    -- what a cause or an explanation names: events and states of a business
    'trouble', 'troubles', 'difficulty', 'difficulties', 'crisis', 'issues', 'pressure', 'strain', 'headwind',
    'headwinds', 'tailwind', 'tailwinds', 'threat', 'opportunity', 'success', 'successful', 'profit', 'profits',
    'profitable', 'unprofitable', 'margin', 'margins', 'cost', 'costs', 'expense', 'expenses', 'spending',
    'budget', 'target', 'targets', 'goal', 'strategy', 'campaign', 'promotion', 'price', 'prices', 'pricing',
    'surcharge', 'demand', 'market', 'competitor', 'competitors', 'competition', 'season', 'seasonal',
    'seasonality', 'holiday', 'holidays', 'migration', 'delivery', 'deliveries', 'shipment', 'shipments',
    'quality', 'defect', 'defects', 'defective', 'return', 'returns', 'returned', 'cancellation', 'churn',
    'lost', 'losing', 'lose', 'win', 'won', 'winning', 'slump', 'boom', 'recession', 'inflation', 'economy',
    'economic', 'restructuring', 'merger', 'acquisition', 'acquired', 'takeover', 'layoffs', 'strike',
    'shortage', 'shortages', 'bottleneck', 'outage', 'error', 'errors', 'mistake', 'mistakes', 'wrong',
    'incorrect', 'correctly', 'accurate', 'inaccurate', 'missing', 'duplicate', 'duplicated', 'overpaid',
    'underpaid', 'overcharged', 'switched', 'switch', 'moved', 'moving', 'closing', 'opened',
    'preis', 'preise', 'preiserhöhung', 'kosten', 'gewinn', 'marge', 'nachfrage', 'markt', 'wettbewerber',
    'konkurrenz', 'saison', 'saisonal', 'urlaub', 'ferien', 'lieferung', 'lieferungen', 'qualität', 'mangel',
    'mängel', 'fehler', 'falsch', 'krise', 'schwierigkeiten', 'verloren', 'verlieren', 'gewonnen', 'umstellung',
    'kampagne', 'aktion', 'streik', 'engpass', 'wartet', 'warten',
    -- advice, recommendation and action
    'recommend', 'recommends', 'recommended', 'recommending', 'advise', 'advises', 'advised', 'advice',
    'propose', 'proposed', 'proposal', 'consider', 'considering', 'urge', 'urged', 'escalate', 'escalated',
    'escalation', 'chase', 'chased', 'chasing', 'follow up', 'remind', 'reminded', 'reminder', 'reminders',
    'contact', 'contacted', 'call', 'called', 'calling', 'hold', 'on hold', 'stop', 'stopped', 'block',
    'blocked', 'freeze', 'frozen', 'suspend', 'suspended', 'cancel', 'cancelled', 'canceled', 'terminate',
    'terminated', 'sue', 'sued', 'lawsuit', 'litigation', 'legal', 'legal action', 'lawyer', 'lawyers',
    'court', 'dispute', 'disputed', 'disputes', 'contested', 'complaint', 'complaints', 'complained', 'claim',
    'claims', 'claimed', 'alleged', 'prioritise', 'prioritize', 'prioritised', 'prioritized', 'focus', 'avoid',
    'ensure', 'require', 'required', 'requires', 'approve', 'approved', 'approval', 'reject', 'rejected',
    'deny', 'denied', 'accept', 'accepted', 'release', 'released', 'delay', 'delayed', 'postpone', 'postponed',
    'renegotiate', 'negotiate', 'negotiated', 'penalty', 'penalties', 'interest', 'fee', 'fees', 'discount',
    'discounted', 'waive', 'waived', 'empfehlen', 'empfehle', 'empfiehlt', 'empfohlen', 'raten', 'rate', 'rät',
    'vorschlagen', 'vorschlag', 'eskalieren', 'eskaliert', 'nachfassen', 'erinnern', 'erinnerung', 'kontaktieren',
    'sperren', 'gesperrt', 'stoppen', 'gestoppt', 'klagen', 'klage', 'verklagen', 'anwalt', 'gericht',
    'rechtlich', 'streit', 'strittig', 'reklamation', 'beschwerde', 'priorisieren', 'freigeben', 'freigegeben',
    'ablehnen', 'abgelehnt', 'verzögert', 'mahngebühr', 'zinsen', 'gebühr', 'rabatt', 'skonto'
]) AS w
WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = w);

INSERT INTO footnote.lexicon (phrase, class)
SELECT w, 'negator' FROM unnest(ARRAY['nie', 'niemals', 'hardly', 'scarcely', 'kaum', 'weder']) AS w
WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = w);

INSERT INTO footnote.lexicon (phrase, class)
SELECT w, 'modifier' FROM unnest(ARRAY['nur']) AS w
WHERE NOT EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.phrase = w);
