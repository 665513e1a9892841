-- footnote-pg: reading a text the way the gate grades it.
--
-- A text becomes lexemes: figures (spans the caller or the gate has bound to a value), words and
-- phrases looked up in footnote.lexicon, numbers written any other way, punctuation and line
-- breaks. Lexemes are grouped into sentences (or into the units of a template), negations are
-- attached to what they negate, and each sentence is summarised for the gate: its figures with
-- the words next to them, its content words with their polarity, the numerals, scale, unit,
-- currency, modifier and sign tokens it holds, and negations that attach to nothing.

-- Every non-ASCII character Unicode classes as a number (Nd, Nl, No; Unicode 14) and an ASCII digit for
-- each, so a number written in any script, fullwidth, circled, superscript or as a fraction is caught.
CREATE FUNCTION footnote._numeric_chars(OUT chars text, OUT digits text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT '²³¹¼½¾٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹߀߁߂߃߄߅߆߇߈߉०१२३४५६७८९০১২৩৪৫৬৭৮৯৴৵৶৷৸৹੦੧੨੩੪੫੬੭੮੯૦૧૨૩૪૫૬૭૮૯୦୧୨୩୪୫୬୭୮୯୲୳୴୵୶୷௦௧௨௩௪௫௬௭௮௯௰௱௲౦౧౨౩౪౫౬౭౮౯౸౹౺౻౼౽౾೦೧೨೩೪೫೬೭೮೯൘൙൚൛൜൝൞൦൧൨൩൪൫൬൭൮൯൰൱൲൳൴൵൶൷൸෦෧෨෩෪෫෬෭෮෯๐๑๒๓๔๕๖๗๘๙໐໑໒໓໔໕໖໗໘໙༠༡༢༣༤༥༦༧༨༩༪༫༬༭༮༯༰༱༲༳၀၁၂၃၄၅၆၇၈၉႐႑႒႓႔႕႖႗႘႙፩፪፫፬፭፮፯፰፱፲፳፴፵፶፷፸፹፺፻፼ᛮᛯᛰ០១២៣៤៥៦៧៨៩៰៱៲៳៴៵៶៷៸៹᠐᠑᠒᠓᠔᠕᠖᠗᠘᠙᥆᥇᥈᥉᥊᥋᥌᥍᥎᥏᧐᧑᧒᧓᧔᧕᧖᧗᧘᧙᧚᪀᪁᪂᪃᪄᪅᪆᪇᪈᪉᪐᪑᪒᪓᪔᪕᪖᪗᪘᪙᭐᭑᭒᭓᭔᭕᭖᭗᭘᭙᮰᮱᮲᮳᮴᮵᮶᮷᮸᮹᱀᱁᱂᱃᱄᱅᱆᱇᱈᱉᱐᱑᱒᱓᱔᱕᱖᱗᱘᱙⁰⁴⁵⁶⁷⁸⁹₀₁₂₃₄₅₆₇₈₉⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞⅟ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩⅪⅫⅬⅭⅮⅯⅰⅱⅲⅳⅴⅵⅶⅷⅸⅹⅺⅻⅼⅽⅾⅿↀↁↂↅↆↇↈ↉①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳⑴⑵⑶⑷⑸⑹⑺⑻⑼⑽⑾⑿⒀⒁⒂⒃⒄⒅⒆⒇⒈⒉⒊⒋⒌⒍⒎⒏⒐⒑⒒⒓⒔⒕⒖⒗⒘⒙⒚⒛⓪⓫⓬⓭⓮⓯⓰⓱⓲⓳⓴⓵⓶⓷⓸⓹⓺⓻⓼⓽⓾⓿❶❷❸❹❺❻❼❽❾❿➀➁➂➃➄➅➆➇➈➉➊➋➌➍➎➏➐➑➒➓⳽〇〡〢〣〤〥〦〧〨〩〸〹〺㆒㆓㆔㆕㈠㈡㈢㈣㈤㈥㈦㈧㈨㈩㉈㉉㉊㉋㉌㉍㉎㉏㉑㉒㉓㉔㉕㉖㉗㉘㉙㉚㉛㉜㉝㉞㉟㊀㊁㊂㊃㊄㊅㊆㊇㊈㊉㊱㊲㊳㊴㊵㊶㊷㊸㊹㊺㊻㊼㊽㊾㊿꘠꘡꘢꘣꘤꘥꘦꘧꘨꘩ꛦꛧꛨꛩꛪꛫꛬꛭꛮꛯ꠰꠱꠲꠳꠴꠵꣐꣑꣒꣓꣔꣕꣖꣗꣘꣙꤀꤁꤂꤃꤄꤅꤆꤇꤈꤉꧐꧑꧒꧓꧔꧕꧖꧗꧘꧙꧰꧱꧲꧳꧴꧵꧶꧷꧸꧹꩐꩑꩒꩓꩔꩕꩖꩗꩘꩙꯰꯱꯲꯳꯴꯵꯶꯷꯸꯹０１２３４５６７８９𐄇𐄈𐄉𐄊𐄋𐄌𐄍𐄎𐄏𐄐𐄑𐄒𐄓𐄔𐄕𐄖𐄗𐄘𐄙𐄚𐄛𐄜𐄝𐄞𐄟𐄠𐄡𐄢𐄣𐄤𐄥𐄦𐄧𐄨𐄩𐄪𐄫𐄬𐄭𐄮𐄯𐄰𐄱𐄲𐄳𐅀𐅁𐅂𐅃𐅄𐅅𐅆𐅇𐅈𐅉𐅊𐅋𐅌𐅍𐅎𐅏𐅐𐅑𐅒𐅓𐅔𐅕𐅖𐅗𐅘𐅙𐅚𐅛𐅜𐅝𐅞𐅟𐅠𐅡𐅢𐅣𐅤𐅥𐅦𐅧𐅨𐅩𐅪𐅫𐅬𐅭𐅮𐅯𐅰𐅱𐅲𐅳𐅴𐅵𐅶𐅷𐅸𐆊𐆋𐋡𐋢𐋣𐋤𐋥𐋦𐋧𐋨𐋩𐋪𐋫𐋬𐋭𐋮𐋯𐋰𐋱𐋲𐋳𐋴𐋵𐋶𐋷𐋸𐋹𐋺𐋻𐌠𐌡𐌢𐌣𐍁𐍊𐏑𐏒𐏓𐏔𐏕𐒠𐒡𐒢𐒣𐒤𐒥𐒦𐒧𐒨𐒩𐡘𐡙𐡚𐡛𐡜𐡝𐡞𐡟𐡹𐡺𐡻𐡼𐡽𐡾𐡿𐢧𐢨𐢩𐢪𐢫𐢬𐢭𐢮𐢯𐣻𐣼𐣽𐣾𐣿𐤖𐤗𐤘𐤙𐤚𐤛𐦼𐦽𐧀𐧁𐧂𐧃𐧄𐧅𐧆𐧇𐧈𐧉𐧊𐧋𐧌𐧍𐧎𐧏𐧒𐧓𐧔𐧕𐧖𐧗𐧘𐧙𐧚𐧛𐧜𐧝𐧞𐧟𐧠𐧡𐧢𐧣𐧤𐧥𐧦𐧧𐧨𐧩𐧪𐧫𐧬𐧭𐧮𐧯𐧰𐧱𐧲𐧳𐧴𐧵𐧶𐧷𐧸𐧹𐧺𐧻𐧼𐧽𐧾𐧿𐩀𐩁𐩂𐩃𐩄𐩅𐩆𐩇𐩈𐩽𐩾𐪝𐪞𐪟𐫫𐫬𐫭𐫮𐫯𐭘𐭙𐭚𐭛𐭜𐭝𐭞𐭟𐭸𐭹𐭺𐭻𐭼𐭽𐭾𐭿𐮩𐮪𐮫𐮬𐮭𐮮𐮯𐳺𐳻𐳼𐳽𐳾𐳿𐴰𐴱𐴲𐴳𐴴𐴵𐴶𐴷𐴸𐴹𐹠𐹡𐹢𐹣𐹤𐹥𐹦𐹧𐹨𐹩𐹪𐹫𐹬𐹭𐹮𐹯𐹰𐹱𐹲𐹳𐹴𐹵𐹶𐹷𐹸𐹹𐹺𐹻𐹼𐹽𐹾𐼝𐼞𐼟𐼠𐼡𐼢𐼣𐼤𐼥𐼦𐽑𐽒𐽓𐽔𐿅𐿆𐿇𐿈𐿉𐿊𐿋𑁒𑁓𑁔𑁕𑁖𑁗𑁘𑁙𑁚𑁛𑁜𑁝𑁞𑁟𑁠𑁡𑁢𑁣𑁤𑁥𑁦𑁧𑁨𑁩𑁪𑁫𑁬𑁭𑁮𑁯𑃰𑃱𑃲𑃳𑃴𑃵𑃶𑃷𑃸𑃹𑄶𑄷𑄸𑄹𑄺𑄻𑄼𑄽𑄾𑄿𑇐𑇑𑇒𑇓𑇔𑇕𑇖𑇗𑇘𑇙𑇡𑇢𑇣𑇤𑇥𑇦𑇧𑇨𑇩𑇪𑇫𑇬𑇭𑇮𑇯𑇰𑇱𑇲𑇳𑇴𑋰𑋱𑋲𑋳𑋴𑋵𑋶𑋷𑋸𑋹𑑐𑑑𑑒𑑓𑑔𑑕𑑖𑑗𑑘𑑙𑓐𑓑𑓒𑓓𑓔𑓕𑓖𑓗𑓘𑓙𑙐𑙑𑙒𑙓𑙔𑙕𑙖𑙗𑙘𑙙𑛀𑛁𑛂𑛃𑛄𑛅𑛆𑛇𑛈𑛉𑜰𑜱𑜲𑜳𑜴𑜵𑜶𑜷𑜸𑜹𑜺𑜻𑣠𑣡𑣢𑣣𑣤𑣥𑣦𑣧𑣨𑣩𑣪𑣫𑣬𑣭𑣮𑣯𑣰𑣱𑣲𑥐𑥑𑥒𑥓𑥔𑥕𑥖𑥗𑥘𑥙𑱐𑱑𑱒𑱓𑱔𑱕𑱖𑱗𑱘𑱙𑱚𑱛𑱜𑱝𑱞𑱟𑱠𑱡𑱢𑱣𑱤𑱥𑱦𑱧𑱨𑱩𑱪𑱫𑱬𑵐𑵑𑵒𑵓𑵔𑵕𑵖𑵗𑵘𑵙𑶠𑶡𑶢𑶣𑶤𑶥𑶦𑶧𑶨𑶩𑿀𑿁𑿂𑿃𑿄𑿅𑿆𑿇𑿈𑿉𑿊𑿋𑿌𑿍𑿎𑿏𑿐𑿑𑿒𑿓𑿔𒐀𒐁𒐂𒐃𒐄𒐅𒐆𒐇𒐈𒐉𒐊𒐋𒐌𒐍𒐎𒐏𒐐𒐑𒐒𒐓𒐔𒐕𒐖𒐗𒐘𒐙𒐚𒐛𒐜𒐝𒐞𒐟𒐠𒐡𒐢𒐣𒐤𒐥𒐦𒐧𒐨𒐩𒐪𒐫𒐬𒐭𒐮𒐯𒐰𒐱𒐲𒐳𒐴𒐵𒐶𒐷𒐸𒐹𒐺𒐻𒐼𒐽𒐾𒐿𒑀𒑁𒑂𒑃𒑄𒑅𒑆𒑇𒑈𒑉𒑊𒑋𒑌𒑍𒑎𒑏𒑐𒑑𒑒𒑓𒑔𒑕𒑖𒑗𒑘𒑙𒑚𒑛𒑜𒑝𒑞𒑟𒑠𒑡𒑢𒑣𒑤𒑥𒑦𒑧𒑨𒑩𒑪𒑫𒑬𒑭𒑮𖩠𖩡𖩢𖩣𖩤𖩥𖩦𖩧𖩨𖩩𖫀𖫁𖫂𖫃𖫄𖫅𖫆𖫇𖫈𖫉𖭐𖭑𖭒𖭓𖭔𖭕𖭖𖭗𖭘𖭙𖭛𖭜𖭝𖭞𖭟𖭠𖭡𖺀𖺁𖺂𖺃𖺄𖺅𖺆𖺇𖺈𖺉𖺊𖺋𖺌𖺍𖺎𖺏𖺐𖺑𖺒𖺓𖺔𖺕𖺖𝋠𝋡𝋢𝋣𝋤𝋥𝋦𝋧𝋨𝋩𝋪𝋫𝋬𝋭𝋮𝋯𝋰𝋱𝋲𝋳𝍠𝍡𝍢𝍣𝍤𝍥𝍦𝍧𝍨𝍩𝍪𝍫𝍬𝍭𝍮𝍯𝍰𝍱𝍲𝍳𝍴𝍵𝍶𝍷𝍸𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗𝟘𝟙𝟚𝟛𝟜𝟝𝟞𝟟𝟠𝟡𝟢𝟣𝟤𝟥𝟦𝟧𝟨𝟩𝟪𝟫𝟬𝟭𝟮𝟯𝟰𝟱𝟲𝟳𝟴𝟵𝟶𝟷𝟸𝟹𝟺𝟻𝟼𝟽𝟾𝟿𞅀𞅁𞅂𞅃𞅄𞅅𞅆𞅇𞅈𞅉𞋰𞋱𞋲𞋳𞋴𞋵𞋶𞋷𞋸𞋹𞣇𞣈𞣉𞣊𞣋𞣌𞣍𞣎𞣏𞥐𞥑𞥒𞥓𞥔𞥕𞥖𞥗𞥘𞥙𞱱𞱲𞱳𞱴𞱵𞱶𞱷𞱸𞱹𞱺𞱻𞱼𞱽𞱾𞱿𞲀𞲁𞲂𞲃𞲄𞲅𞲆𞲇𞲈𞲉𞲊𞲋𞲌𞲍𞲎𞲏𞲐𞲑𞲒𞲓𞲔𞲕𞲖𞲗𞲘𞲙𞲚𞲛𞲜𞲝𞲞𞲟𞲠𞲡𞲢𞲣𞲤𞲥𞲦𞲧𞲨𞲩𞲪𞲫𞲭𞲮𞲯𞲱𞲲𞲳𞲴𞴁𞴂𞴃𞴄𞴅𞴆𞴇𞴈𞴉𞴊𞴋𞴌𞴍𞴎𞴏𞴐𞴑𞴒𞴓𞴔𞴕𞴖𞴗𞴘𞴙𞴚𞴛𞴜𞴝𞴞𞴟𞴠𞴡𞴢𞴣𞴤𞴥𞴦𞴧𞴨𞴩𞴪𞴫𞴬𞴭𞴯𞴰𞴱𞴲𞴳𞴴𞴵𞴶𞴷𞴸𞴹𞴺𞴻𞴼𞴽🄀🄁🄂🄃🄄🄅🄆🄇🄈🄉🄊🄋🄌🯰🯱🯲🯳🯴🯵🯶🯷🯸🯹'::text,
           '00000001234567890123456789012345678901234567890123456789000000012345678901234567890123456789000000012345678900001234567890000000012345678900000000123456789000000000012345678901234567890123456789012345678900000000000123456789012345678900000000000000000000000012345678900000000000123456789012345678901234567890012345678901234567890123456789012345678901234567890123456789000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000012345678900000000000000000123456789012345678901234567890123456789012345678901234567890123456789000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001234567890000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000123456789000000000000000000000000000000000000000000000000000000000000000000000000012345678901234567890123456789012345678900000000000000000000012345678901234567890123456789012345678901234567890123456789000123456789000000000012345678901234567890000000000000000000012345678901234567890000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000123456789012345678901234567890000000000000000000000000000000000000000000000000000000000000000000000000000123456789012345678901234567890123456789012345678901234567890123456789000000000012345678900000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000123456789'::text
$$;

-- The letters of words, as a regular-expression bracket expression (Latin, Greek, Cyrillic, Hebrew,
-- Arabic, Indic, CJK, fullwidth): the reader's notion of a letter, independent of the database's locale.
CREATE FUNCTION footnote._letters()
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT '[A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02AF\u0370-\u03FF\u0400-\u052F\u0590-\u06FF\u0900-\u0DFF'
        || '\u0E00-\u0FFF\u1E00-\u1FFF\u3040-\u9FFF\uAC00-\uD7AF\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A]'
$$;

-- True when s holds a number in any form (an ASCII digit or any character of _numeric_chars).
CREATE FUNCTION footnote._has_numeral(s text)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT s ~ '[0-9]' OR (s ~ '[^\x01-\x7f]' AND translate(s, n.chars, n.digits) ~ '[0-9]')
    FROM footnote._numeric_chars() AS n
$$;

-- A text as the gate reads and records it when it finds the figures itself: line ends as \n, and
-- Unicode composed (NFC: "u" + combining diaeresis is "ü") where the database is UTF-8.
CREATE FUNCTION footnote._normal_text(t text)
RETURNS text
LANGUAGE sql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN current_setting('server_encoding') = 'UTF8' THEN normalize(x, NFC) ELSE x END
    FROM (SELECT replace(replace(t, E'\r\n', E'\n'), E'\r', E'\n') AS x) AS n
$$;

-- Look-alike characters mapped one to one (the length never changes): spaces, dashes, quotes,
-- apostrophes and invisible characters.
CREATE FUNCTION footnote._plain(s text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT translate(s,
        E'\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000\u200b\u200c\u200d\u2060\ufeff\u00ad'
        || E'\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d\u2018\u2019\u201a\u201b\u2032\u00b4\u02bc\u02bb\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb',
        '                     ' || '----------''''''''''''''''"""""""""')
$$;

-- Lower case with accents folded, one character for one (for finding names as people write them).
CREATE FUNCTION footnote._fold1(s text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN length(f) = length(s) THEN f ELSE lower(s) END
    FROM (SELECT lower(translate(footnote._plain(s), m.accented, m.plain)) AS f FROM footnote._fold_map() AS m) AS x
$$;

-- The canonical form of a word that is not in the lexicon: lower case, possessive and plural -s dropped.
CREATE FUNCTION footnote._stem(w text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN x ~ '''s$' THEN left(x, -2)
                WHEN length(x) > 3 AND x ~ '[^s]s$' AND x !~ '(us|is|ss)$' THEN left(x, -1)
                ELSE x END
    FROM (SELECT lower(w) AS x) AS l
$$;

-- One lexeme of a text: a figure, a word or phrase, a number written otherwise, punctuation or a line break.
CREATE TYPE footnote._lexeme AS (
    s        integer,   -- span in the text, 0-based, end exclusive
    e        integer,
    kind     text,      -- figure, word, punct, break, marker
    text     text,      -- as written
    class    text,      -- for words: the lexicon class ('word' when not listed), 'digits' for numbers
    canon    text,      -- for words: the canonical form
    negated  boolean,   -- the word carries a negation, or a negator before it negates it
    fig      integer,   -- for figures: the index of the figure (0-based)
    glued    boolean,   -- no space between this and the previous lexeme
    known    boolean,   -- the word is in the lexicon
    sentence integer    -- the sentence (or template unit) it belongs to, from 0; NULL outside any
);

-- The lexemes of a text, with the figures at the given spans ([{"start": s, "end": e}, ...], sorted, disjoint).
CREATE FUNCTION footnote._lexemes(t text, figs jsonb)
RETURNS footnote._lexeme[]
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    word_re  constant text := footnote._letters();
    tok_re   text;
    k        text[] := '{}';   -- raw tokens: kind, start, end, text, glued
    ks       integer[] := '{}';
    ke       integer[] := '{}';
    kt       text[] := '{}';
    kg       boolean[] := '{}';
    kf       integer[] := '{}';
    pos      integer := 0;
    fstart   integer;
    fend     integer;
    f        integer := 0;
    nfig     integer := coalesce(jsonb_array_length(figs), 0);
    seg      text;
    tok      text;
    glued    boolean := true;
    off      integer;
    ck       text[] := '{}';
    cs       integer[] := '{}';
    ce       integer[] := '{}';
    c        integer;
    lex      jsonb;
    i        integer;
    j        integer;
    n        integer;
    key      text;
    best     integer;
    bestkey  text;
    entry    jsonb;
    nt       integer;
    out      footnote._lexeme[] := '{}';
    prev     footnote._lexeme;
    cls      text;
BEGIN
    tok_re := '(\n|[ \t\r\f\v]+|' || word_re || '+(?:''' || word_re || '+)*|[0-9]+|.)';
    -- raw tokens of the text between figures; a figure is one token
    LOOP
        IF f < nfig THEN
            fstart := (figs->f->>'start')::integer;
            fend := (figs->f->>'end')::integer;
        ELSE
            fstart := length(t);
            fend := NULL;
        END IF;
        seg := substr(t, pos + 1, fstart - pos);
        off := pos;
        FOR tok IN SELECT m[1] FROM regexp_matches(seg, tok_re, 'g') WITH ORDINALITY AS x(m, o) ORDER BY o LOOP
            IF tok ~ '^[ \t\r\f\v]+$' THEN
                glued := false;
            ELSIF tok ~ ('^' || word_re) AND tok ~* 'n''t$' AND length(tok) > 3 THEN
                -- isn't -> is + n't; can't -> can + n't; won't -> will + n't
                k := k || 'word'::text || 'word'::text;
                kt := kt || CASE lower(tok) WHEN 'can''t' THEN 'can' WHEN 'won''t' THEN 'will'
                                WHEN 'shan''t' THEN 'shall' ELSE left(tok, -3) END || 'n''t'::text;
                ks := ks || off || (off + length(tok) - 3);
                ke := ke || (off + length(tok) - 3) || (off + length(tok));
                kg := kg || glued || true;
                kf := kf || NULL::integer || NULL::integer;
                glued := true;
            ELSE
                k := k || CASE WHEN tok = E'\n' THEN 'break' WHEN tok ~ ('^' || word_re) THEN 'word'
                               WHEN tok ~ '^[0-9]' THEN 'digits' ELSE 'punct' END;
                kt := kt || tok;
                ks := ks || off;
                ke := ke || (off + length(tok));
                kg := kg || glued;
                kf := kf || NULL::integer;
                glued := true;
            END IF;
            off := off + length(tok);
        END LOOP;
        EXIT WHEN fend IS NULL;
        k := k || 'figure'::text;
        kt := kt || substr(t, fstart + 1, fend - fstart);
        ks := ks || fstart;
        ke := ke || fend;
        kg := kg || glued;
        kf := kf || f;
        glued := true;
        pos := fend;
        f := f + 1;
    END LOOP;
    nt := cardinality(k);

    -- candidate phrases: up to eight words joined by spaces or by a glued - / . ' or _ (credit_limit), and single
    -- symbols;
    -- ck, cs, ce: each candidate's key and the tokens it spans
    FOR i IN 1..nt LOOP
        IF k[i] = 'word' THEN
            key := lower(kt[i]);
            ck := ck || key; cs := cs || i; ce := ce || i;
            j := i;
            n := 1;
            WHILE n < 8 LOOP
                IF j + 1 <= nt AND k[j + 1] = 'word' AND NOT kg[j + 1] THEN
                    j := j + 1;
                ELSIF j + 2 <= nt AND k[j + 1] = 'punct' AND kt[j + 1] IN ('-', '/', '.', '''', '_') AND kg[j + 1]
                      AND k[j + 2] = 'word' AND kg[j + 2] THEN
                    j := j + 2;
                ELSE
                    EXIT;
                END IF;
                key := key || ' ' || lower(kt[j]);
                ck := ck || key; cs := cs || i; ce := ce || j;
                n := n + 1;
            END LOOP;
        ELSIF k[i] = 'punct' THEN
            ck := ck || kt[i]; cs := cs || i; ce := ce || i;
        END IF;
    END LOOP;
    SELECT coalesce(jsonb_object_agg(l.phrase, jsonb_build_array(l.class, coalesce(l.canon, s.canon), l.negated)), '{}')
    INTO lex
    FROM footnote.lexicon AS l LEFT JOIN footnote._unit_spellings() AS s ON s.phrase = l.phrase
    WHERE l.phrase = ANY (ck);

    -- lexemes: the longest phrase at each word, figures, numbers, punctuation
    i := 1;
    c := 1;
    WHILE i <= nt LOOP
        IF k[i] = 'word' THEN
            WHILE c <= cardinality(cs) AND cs[c] < i LOOP
                c := c + 1;
            END LOOP;
            best := i;
            bestkey := NULL;
            WHILE c <= cardinality(cs) AND cs[c] = i LOOP
                IF lex ? ck[c] THEN
                    best := ce[c];
                    bestkey := ck[c];
                END IF;
                c := c + 1;
            END LOOP;
            entry := lex->bestkey;
            IF kt[i] ~ '[^\x01-\x2f\x3a-\x7f]' AND footnote._has_numeral(kt[i]) THEN  -- a digit or non-ASCII
                cls := 'digits';
            ELSE
                cls := coalesce(entry->>0, 'word');
            END IF;
            -- "@Ana": a mention of whom a message goes to, not a statement
            IF i > 1 AND k[i - 1] = 'punct' AND kt[i - 1] = '@' AND kg[i] THEN
                cls := 'discourse';
            END IF;
            -- a vocative: a name the lexicon does not know, after a greeting that opens a line or a sentence ("Hey
            -- Sofia 👋", "Hi Ana, ..."), or opening one with a comma after it ("Jonas, Bergmann owes ..."), when no
            -- customer, supplier or item bears it: whom the text is for, not a statement
            IF entry IS NULL AND best = i AND kt[i] ~ '^[A-Z\u00C0-\u00DE][a-z\u00DF-\u00FF]{1,14}$'
               AND ((i > 1 AND k[i - 1] = 'word'
                     AND lower(kt[i - 1]) IN ('hi', 'hey', 'hello', 'dear', 'hallo', 'hola', 'liebe', 'lieber', 'ciao', 'morning')
                     AND (i = 2 OR k[i - 2] = 'break' OR (k[i - 2] = 'punct' AND kt[i - 2] IN ('.', '!', ':', ',', '—', '–', '-'))))
                    OR ((i = 1 OR k[i - 1] = 'break' OR (k[i - 1] = 'punct' AND kt[i - 1] IN ('.', '!', ':', '—', '–') AND NOT kg[i]))
                        AND i < nt AND k[i + 1] = 'punct' AND kt[i + 1] = ','))
               AND cardinality(footnote._names_of(kt[i])) = 0 THEN
                cls := 'discourse';
            END IF;
            -- "the oldest one", "each one": a pronoun, not a number
            IF cls = 'numeral' AND bestkey = 'one' AND cardinality(out) > 0 THEN
                prev := out[cardinality(out)];
                IF lower(prev.text) IN ('the', 'this', 'that', 'each', 'which', 'any', 'every', 'no', 'oldest', 'newest',
                                        'latest', 'largest', 'biggest', 'smallest', 'last', 'same', 'other',
                                        'another', 'only', 'single', 'older', 'newer', 'earliest') THEN
                    cls := 'neutral';
                END IF;
            END IF;
            -- "43.805,00 € overdue over 4 invoices", "2.812.279,42 € über 321 Rechnungen": right after an amount (a
            -- figure, or one word after it) and before a count of documents, over / über says across how many the
            -- amount is spread, not "more than" ("owes over 43.805,00 €", "overdue over 104 days" stay modifiers)
            IF cls = 'modifier' AND bestkey IN ('over', 'über') AND best + 2 <= nt AND k[best + 1] = 'figure'
               AND k[best + 2] = 'word' AND NOT kg[best + 1]
               AND lex->lower(kt[best + 2])->>1 IN ('invoice', 'credit note', 'purchase order', 'order', 'payment',
                                                   'customer', 'supplier', 'line', 'item', 'ticket')
               AND cardinality(out) > 0
               AND (out[cardinality(out)].kind = 'figure'
                    -- one word between: the amount's own measure ("overdue", "überfällig"), not a word that
                    -- already says across ("across over 12 invoices" is "more than 12")
                    OR (out[cardinality(out)].kind = 'word' AND out[cardinality(out)].class = 'word'
                        AND cardinality(out) > 1 AND out[cardinality(out) - 1].kind = 'figure')) THEN
                cls := 'neutral';
            END IF;
            -- "INV-2025-7804 über 5.123,87 €", "eine Rechnung über 5.123,87 €": after a document (its number or
            -- its noun) and before an amount, über says what the document is for, not "more than"
            IF cls = 'modifier' AND bestkey = 'über' AND best + 1 <= nt AND k[best + 1] = 'figure'
               AND cardinality(out) > 0
               AND ((out[cardinality(out)].kind = 'figure' AND out[cardinality(out)].text ~ '^[A-Z]{2,4}[-/][0-9]')
                    OR (out[cardinality(out)].kind = 'word' AND out[cardinality(out)].canon IN ('invoice', 'credit note'))) THEN
                cls := 'neutral';
            END IF;
            -- "AR per 14.08.2026": per before a date says as of when, not a rate
            IF cls = 'unit' AND bestkey = 'per' AND best + 1 <= nt AND k[best + 1] = 'figure'
               AND kt[best + 1] ~ '^[0-9]{1,2}\.[0-9]{1,2}\.[0-9]{2,4}$' THEN
                cls := 'neutral';
            END IF;
            out := out || ROW(ks[i], ke[best], 'word', substr(t, ks[i] + 1, ke[best] - ks[i]), cls,
                              CASE WHEN cls = 'word' THEN coalesce(entry->>1, footnote._stem(kt[i]))
                                   ELSE coalesce(entry->>1, bestkey, lower(kt[i])) END,
                              coalesce((entry->>2)::boolean, false), NULL, kg[i], entry IS NOT NULL,
                              NULL)::footnote._lexeme;
            i := best + 1;
        ELSE
            -- "Vidal: 0 open tickets": a 0 that no figure took, written before a content word, says "no" ("no open
            -- tickets"); before a unit, a currency or a scale ("0 days", "0 €") it stays a number
            IF k[i] = 'digits' AND kt[i] = '0' AND i < nt AND k[i + 1] = 'word' AND NOT kg[i + 1]
               AND (i = 1 OR NOT kg[i] OR k[i - 1] = 'break' OR (k[i - 1] = 'punct' AND kt[i - 1] IN ('(', '[', '*', '"')))
               AND coalesce(lex->lower(kt[i + 1])->>0, 'word') = 'word' THEN
                out := out || ROW(ks[i], ke[i], 'word', kt[i], 'negator', 'no', false, NULL, kg[i], true,
                                  NULL)::footnote._lexeme;
                i := i + 1;
                CONTINUE;
            END IF;
            IF k[i] = 'punct' AND lex ? kt[i] THEN
                out := out || ROW(ks[i], ke[i], 'word', kt[i], lex->kt[i]->>0, kt[i], false, NULL, kg[i], true,
                                  NULL)::footnote._lexeme;
            ELSIF k[i] IN ('digits', 'punct') AND kt[i] ~ '[^\x01-\x2f\x3a-\x7f]' AND footnote._has_numeral(kt[i]) THEN
                out := out || ROW(ks[i], ke[i], 'word', kt[i], 'digits', kt[i], false, NULL, kg[i], false,
                                  NULL)::footnote._lexeme;
            ELSE
                out := out || ROW(ks[i], ke[i], k[i], kt[i], NULL, NULL, false, kf[i], kg[i], false,
                                  NULL)::footnote._lexeme;
            END IF;
            i := i + 1;
        END IF;
    END LOOP;
    RETURN out;
END
$$;

-- Lexemes grouped into sentences: by the given unit spans ([{"start", "end"}]) or, without them, at
-- line breaks and at . ! ? ; followed by a space (not after an abbreviation). List markers at the
-- start of a line (-, *, •, "1.") belong to no sentence; with numbered = false a leading number is a
-- marker only when no figure took it. Negators are attached to the next content word or figure of
-- their clause.
CREATE FUNCTION footnote._sentences(lx footnote._lexeme[], spans jsonb)
RETURNS footnote._lexeme[]
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    n        integer := cardinality(lx);
    i        integer;
    sn       integer := 0;
    used     boolean := false;
    at_start boolean := true;
    u        integer;
    pending  boolean := false;
    cur      integer;
    marked   boolean := false;
    first    integer;
BEGIN
    IF spans IS NOT NULL THEN
        u := 0;
        FOR i IN 1..n LOOP
            WHILE u < jsonb_array_length(spans) AND lx[i].s >= (spans->u->>'end')::integer LOOP
                u := u + 1;
            END LOOP;
            IF u < jsonb_array_length(spans) AND lx[i].s >= (spans->u->>'start')::integer AND lx[i].kind <> 'break' THEN
                lx[i].sentence := u;
            ELSIF lx[i].kind = 'punct' THEN
                lx[i].kind := 'marker';
            END IF;
        END LOOP;
    ELSE
        FOR i IN 1..n LOOP
            IF lx[i].kind = 'break' THEN
                IF used THEN
                    sn := sn + 1;
                    used := false;
                END IF;
                at_start := true;
                marked := false;
                first := NULL;
                CONTINUE;
            END IF;
            IF at_start AND NOT marked
               AND (((lx[i].kind = 'punct' OR (lx[i].kind = 'word' AND lx[i].text = '>'))
                     AND lx[i].text IN ('-', '*', '•', '·', '>', '+', '‣', '◦', '▪')
                     AND (i = n OR NOT lx[i + 1].glued))
                             OR (lx[i].class = 'digits' AND lx[i].text ~ '^[0-9]{1,2}$' AND i < n
                                 AND lx[i + 1].kind = 'punct' AND lx[i + 1].text IN ('.', ')') AND lx[i + 1].glued
                                 AND (i + 1 = n OR NOT lx[i + 2].glued))) THEN
                lx[i].kind := 'marker';
                IF lx[i].class = 'digits' THEN
                    lx[i + 1].kind := 'marker';
                END IF;
                marked := true;
                CONTINUE;
            END IF;
            IF lx[i].kind = 'marker' THEN
                CONTINUE;
            END IF;
            at_start := false;
            first := coalesce(first, i);
            lx[i].sentence := sn;
            used := true;
            IF lx[i].kind = 'punct' AND lx[i].text IN ('.', '!', '?', ';')
               AND (i = n OR NOT lx[i + 1].glued OR lx[i + 1].kind = 'break')
               AND NOT (lx[i].text IN ('.', ')') AND first = i - 1 AND lx[i].glued
                        AND (lx[i - 1].kind = 'figure' OR lx[i - 1].class = 'digits'))
               AND NOT (lx[i].text = '.' AND i > 1 AND lx[i - 1].kind = 'word'
                        AND ((length(lx[i - 1].text) = 1 AND i > 2 AND lx[i - 2].text = '.' AND lx[i - 1].glued)
                             OR lower(lx[i - 1].text) IN ('approx', 'ca', 'etc', 'vs', 'nr', 'incl', 'excl', 'resp',
                                                          'inc', 'ltd', 'co', 'corp', 'st', 'mr', 'mrs', 'ms', 'dr',
                                                          'jr', 'sr', 'cf', 'dept', 'est', 'fig', 'no'))) THEN
                sn := sn + 1;
                used := false;
                at_start := true;
            END IF;
        END LOOP;
    END IF;

    -- a label opening a sentence ("Customer: Müller Präzisionstechnik GmbH", "Invoice: INV-2026-8812") names what
    -- the figure after it is, nothing more; not a label naming a fact of the subject ("Account owner: Sofia Rossi"
    -- where the answer names another owner): the words after that one are read as a statement
    IF spans IS NULL THEN
        FOR i IN 1..n - 1 LOOP
            IF lx[i].kind = 'word' AND lx[i].sentence IS NOT NULL AND lx[i + 1].kind = 'punct' AND lx[i + 1].text = ':'
               AND lx[i].canon IN ('customer', 'supplier', 'invoice', 'item', 'purchase order', 'warehouse', 'credit note',
                                   'ticket', 'account')
               AND NOT EXISTS (SELECT FROM generate_series(1, i - 1) AS j WHERE lx[j].sentence = lx[i].sentence) THEN
                lx[i].class := 'discourse';
            END IF;
        END LOOP;
    END IF;

    -- an answer particle opening a sentence ("Yes —", "No,", "None:", "Yes.") agrees with the statement it
    -- opens when their polarity is the same: it is discourse then; "yes" before a negation and "no" before
    -- none are read as words (and block)
    IF spans IS NULL THEN
        FOR i IN 1..n - 1 LOOP
            CONTINUE WHEN lx[i].kind <> 'word' OR lx[i].sentence IS NULL
                OR lower(lx[i].text) NOT IN ('yes', 'yeah', 'yep', 'ja', 'no', 'nope', 'nein', 'none', 'keine')
                OR lx[i + 1].kind <> 'punct' OR lx[i + 1].text NOT IN ('-', '—', '–', ',', '.', '!', ':', ';');
            -- (a mention or vocative before it, "@Tom None — ...", "Ana, yes: ...", still leaves it opening the sentence)
            CONTINUE WHEN EXISTS (SELECT FROM generate_series(1, i - 1) AS j
                                  WHERE lx[j].sentence = lx[i].sentence
                                    AND NOT (lx[j].kind = 'punct' OR (lx[j].kind = 'word' AND lx[j].class = 'discourse')));
            -- the statement it opens: the rest of its sentence, or the next sentence when it stands alone
            first := CASE WHEN lx[i + 1].text IN ('.', '!') THEN lx[i].sentence + 1 ELSE lx[i].sentence END;
            used := EXISTS (SELECT FROM generate_series(i + 2, n) AS j
                            WHERE lx[j].sentence = first
                              AND ((lx[j].kind = 'word' AND (lx[j].class = 'negator' OR lx[j].negated))
                                   OR (lower(lx[i].text) IN ('none', 'keine') AND lx[j].kind = 'figure'
                                       AND lx[j].text ~ '^0([.,]0+)?( |$)')));
            IF used = (lower(lx[i].text) IN ('no', 'nope', 'nein', 'none', 'keine')) THEN
                lx[i].class := 'discourse';
            END IF;
        END LOOP;
    END IF;

    -- negation: a negator negates the next content word, number or figure of its clause; one that
    -- reaches the end of its clause first is kept as a negation of nothing (kind 'negation')
    cur := NULL;
    FOR i IN 1..n LOOP
        IF lx[i].sentence IS DISTINCT FROM cur
           OR (lx[i].kind = 'punct' AND lx[i].text IN (',', ';', ':', '(', ')', '.', '!', '?', '"'))
           OR (lx[i].kind = 'punct' AND lx[i].text = '-' AND NOT lx[i].glued) THEN
            pending := false;   -- a negator still waiting keeps negated = true: a negation of nothing
            cur := lx[i].sentence;
        END IF;
        IF lx[i].kind = 'word' AND lx[i].class = 'negator' THEN
            lx[i].negated := true;
            pending := true;
            u := i;
        ELSIF pending AND (lx[i].kind = 'figure'
                           OR (lx[i].kind = 'word' AND lx[i].class NOT IN ('neutral', 'discourse', 'negator'))) THEN
            lx[i].negated := NOT coalesce(lx[i].negated, false);
            lx[u].negated := false;
            pending := false;
        END IF;
    END LOOP;
    RETURN lx;
END
$$;

-- The context word of a figure on one side: the nearest word of its sentence (punctuation skipped), by
-- canon for content words and as ~word for the others (of, in, to), '#' when that is another figure,
-- NULL when there is none.
CREATE FUNCTION footnote._cue(lx footnote._lexeme[], i integer, step integer)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    j integer := i + step;
BEGIN
    WHILE j >= 1 AND j <= cardinality(lx) AND lx[j].sentence IS NOT DISTINCT FROM lx[i].sentence LOOP
        IF lx[j].kind = 'figure' THEN
            RETURN '#';
        ELSIF lx[j].kind = 'word' THEN
            RETURN CASE WHEN lx[j].class = 'word' THEN lx[j].canon ELSE '~' || lx[j].canon END;
        END IF;
        j := j + step;
    END LOOP;
    RETURN NULL;
END
$$;

-- The content words within three lexemes of a figure, on both sides, in its sentence (punctuation skipped).
CREATE FUNCTION footnote._near(lx footnote._lexeme[], i integer)
RETURNS jsonb
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(jsonb_agg(DISTINCT x.canon), '[]')
    FROM (SELECT l.canon, l.class, row_number() OVER (PARTITION BY sign(o - i) ORDER BY abs(o - i)) AS d
          FROM unnest(lx) WITH ORDINALITY AS l(s, e, kind, text, class, canon, negated, fig, glued, known, sentence, o)
          WHERE l.sentence IS NOT DISTINCT FROM lx[i].sentence AND o <> i AND l.kind IN ('word', 'figure')) AS x
    WHERE x.d <= 3 AND x.class = 'word'
$$;

-- What touches a figure on one side: a numeral, scale, currency, unit, modifier or sign token next to it
-- (an opening or closing parenthesis or quote in between is skipped), a sign glued to it ("-43.805,00 €"),
-- or parentheses glued around it; as 'class:token', NULL when nothing does.
CREATE FUNCTION footnote._touch(lx footnote._lexeme[], i integer, step integer)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    n integer := cardinality(lx);
    j integer := i + step;
    o integer := i - step;
BEGIN
    IF j < 1 OR j > n OR lx[j].sentence IS DISTINCT FROM lx[i].sentence THEN
        RETURN NULL;
    END IF;
    IF step < 0 AND lx[j].kind = 'punct' AND lx[j].text IN ('-', '+', '±', '−', '–') AND lx[i].glued THEN
        RETURN 'sign:' || lx[j].text;
    END IF;
    IF lx[j].kind = 'punct' AND lx[j].text IN ('(', ')') AND o >= 1 AND o <= n AND lx[o].kind = 'punct'
       AND lx[o].text IN ('(', ')') AND lx[o].text <> lx[j].text
       AND (CASE WHEN step < 0 THEN lx[i].glued AND lx[o].glued ELSE lx[j].glued AND lx[i].glued END) THEN
        RETURN 'paren:()';
    END IF;
    IF lx[j].kind = 'punct' AND lx[j].text IN ('(', ')', '"', '''', '[', ']') THEN
        j := j + step;
        IF j < 1 OR j > n OR lx[j].sentence IS DISTINCT FROM lx[i].sentence THEN
            RETURN NULL;
        END IF;
    END IF;
    -- before a figure every class counts; after it a modifier counts only as a postfix ("or more", "odd"), and a
    -- sign word not at all: it stands before its figure ("Q1 2026 (plus 12,4 %)" signs the percentage)
    IF lx[j].kind = 'word' AND (lx[j].class IN ('numeral', 'scale', 'currency', 'unit', 'digits')
                                OR (lx[j].class = 'sign' AND step < 0)
                                OR (lx[j].class = 'modifier' AND (step < 0 OR lx[j].canon IN (
                                    'or more', 'or less', 'and above', 'and below', 'and up', 'or so', 'odd', 'ish',
                                    'give or take', 'plus or minus', '±')))) THEN
        RETURN lx[j].class || ':' || lx[j].canon;
    END IF;
    RETURN NULL;
END
$$;

-- Whether a figure as written is a value (an amount, a count, a number of days, a percentage), not a name, a
-- label, a period or a date.
CREATE FUNCTION footnote._is_value(written text)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT written ~ '^[-+−(]?[0-9]' AND written !~ '^[0-9]{1,2}[./][0-9]{1,2}[./][0-9]{2,4}$'
$$;

-- A text read for the gate, one summary per sentence (or per given unit span):
--   {"sentence", "start", "end", "text",
--    "figures": [{"figure": index, "negated", "left", "right" (context words), "touch_left", "touch_right"}],
--    "words": ["up", "!verified", ...]  content words by canon, each once; ! marks a negated one
--    "marks": ["numeral:twelve", "scale:million", "digits:12", ...]
--    "negations": n                     negators that negate nothing in their clause
--    "unknown": [...]                   canons of the words the lexicon does not know
--    "capitalised": [...]               those of them written with a capital (names of other entities?)
--    "loose": [...]                     canons of the words the lexicon does not know that stand only in
--                                       clauses holding no figure, no number, no content word the lexicon
--                                       knows and no word for a party (a pronoun, "this", "the company"),
--                                       not negated: discourse
--                                       (footnote._grade drops them, unless one names an entity)
--    "loose_capitalised": [...]         those of them written with a capital, as written}
-- figs: the figures' spans, sorted and disjoint; spans: the units of a template, or NULL for sentences.
-- A clause ends at , ; : ( ) " — – and a spaced -, and with its sentence; a table row is one clause.
CREATE FUNCTION footnote._read(t text, figs jsonb, spans jsonb DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    lx    footnote._lexeme[] := footnote._sentences(footnote._lexemes(t, figs), spans);
    n     integer := cardinality(lx);
    i     integer;
    out   jsonb := '[]';
    cur   integer := NULL;
    s     integer;
    e     integer;
    fg    jsonb;
    words jsonb;
    marks jsonb;
    neg   integer;
    unk   jsonb;
    caps  jsonb;
    x     footnote._lexeme;
    cl    integer[] := '{}';   -- per lexeme: its clause
    clfig boolean[] := '{}';   -- per clause: it holds a figure or a number
    ncl   integer := 0;
    cand  jsonb;               -- canons of unknown words in clauses without a figure
    firm  jsonb;               -- canons of words anywhere else
    lcaps jsonb;
    seen  boolean;             -- a word or figure came before in this sentence
    sg    integer[] := '{}';   -- per lexeme: its segment (a clause as a list writes it: cut at , ; | — – and a
                               -- spaced -, not at a colon or brackets: "Overdue: 43.805,00 € (4 invoices)")
    sgfig integer[] := '{}';   -- per segment: how many figures it holds
    nsg   integer := 0;
BEGIN
    -- the clauses of each sentence, and which of them hold a figure or a number
    cur := NULL;
    FOR i IN 1..n LOOP
        x := lx[i];
        IF i = 1 OR x.sentence IS DISTINCT FROM cur
           OR (x.kind = 'punct' AND x.text IN (',', ';', ':', '(', ')', '"', '—', '–', '[', ']'))
           OR (x.kind = 'punct' AND x.text = '-' AND NOT x.glued) THEN
            ncl := ncl + 1;
            clfig := clfig || false;
            cur := x.sentence;
        END IF;
        cl := cl || ncl;
        IF i = 1 OR x.sentence IS DISTINCT FROM lx[i - 1].sentence
           OR (x.kind = 'punct' AND x.text IN (',', ';', '|', '—', '–'))
           OR (x.kind = 'punct' AND x.text = '-' AND NOT x.glued) THEN
            nsg := nsg + 1;
            sgfig := sgfig || 0;
        END IF;
        sg := sg || nsg;
        IF x.kind = 'figure' AND footnote._is_value(x.text) THEN
            sgfig[nsg] := sgfig[nsg] + 1;
        END IF;
        -- a figure or a number, or a word that refers to a party (a pronoun, "the company", "the customer"):
        -- what the clause says is about someone, and read strictly
        IF x.kind IN ('figure', 'digits')
           OR (x.kind = 'word' AND x.class IN ('digits', 'numeral', 'scale', 'currency', 'sign', 'modifier', 'unit'))
           -- a content word the lexicon knows: the clause states something, and the unknown words in it qualify it
           OR (x.kind = 'word' AND x.class = 'word' AND x.known)
           OR (x.kind = 'word' AND lower(x.text) IN ('this', 'these', 'those',
                   'they', 'them', 'their', 'theirs', 'themselves', 'they''re', 'they''ve', 'they''d', 'they''ll',
                   'he', 'she', 'him', 'his', 'her', 'he''s', 'she''s', 'it', 'its', 'it''s', 'itself', 'we', 'us',
                   'our', 'ours', 'we''re', 'we''ve', 'we''d', 'we''ll', 'company', 'companies', 'firm', 'business',
                   'customer', 'customers', 'client', 'clients', 'supplier', 'suppliers', 'vendor', 'vendors',
                   'account', 'sie', 'er', 'es', 'ihr', 'ihre', 'ihren', 'ihrem', 'ihrer', 'wir', 'uns', 'unser',
                   'unsere', 'unseren', 'unserem', 'unserer', 'firma', 'unternehmen', 'kunde', 'kunden',
                   'lieferant', 'lieferanten')) THEN
            clfig[ncl] := true;
        END IF;
    END LOOP;
    cur := NULL;
    FOR i IN 1..n + 1 LOOP
        IF i <= n THEN
            x := lx[i];
            CONTINUE WHEN x.sentence IS NULL;
        END IF;
        IF i > n OR x.sentence IS DISTINCT FROM cur THEN
            IF cur IS NOT NULL THEN
                out := out || jsonb_build_array(jsonb_build_object(
                    'sentence', cur, 'start', s, 'end', e, 'text', substr(t, s + 1, e - s), 'figures', fg,
                    'words', words, 'marks', marks, 'negations', neg, 'unknown', unk, 'capitalised', caps,
                    'loose', (SELECT coalesce(jsonb_agg(c), '[]') FROM jsonb_array_elements_text(cand) AS c
                              WHERE NOT firm ? c),
                    'loose_capitalised', (SELECT coalesce(jsonb_agg(c->>1), '[]') FROM jsonb_array_elements(lcaps) AS c
                                          WHERE NOT firm ? (c->>0))));
            END IF;
            EXIT WHEN i > n;
            cur := x.sentence;
            s := x.s;
            fg := '[]';
            words := '[]';
            marks := '[]';
            neg := 0;
            unk := '[]';
            caps := '[]';
            cand := '[]';
            firm := '[]';
            lcaps := '[]';
            seen := false;
        END IF;
        e := x.e;
        IF x.kind = 'figure' THEN
            fg := fg || jsonb_build_array(jsonb_build_object(
                'figure', x.fig, 'negated', coalesce(x.negated, false),
                'left', footnote._cue(lx, i, -1), 'right', footnote._cue(lx, i, 1), 'near', footnote._near(lx, i),
                'touch_left', footnote._touch(lx, i, -1), 'touch_right', footnote._touch(lx, i, 1),
                -- the content words of its segment, when it is the only value there (names and dates aside)
                'segment', CASE WHEN sgfig[sg[i]] = 1 AND footnote._is_value(x.text) THEN (
                    SELECT coalesce(jsonb_agg(DISTINCT l.canon), '[]')
                    FROM unnest(lx) WITH ORDINALITY AS l(s, e, kind, text, class, canon, negated, fig, glued, known, sentence, o)
                    WHERE sg[l.o] = sg[i] AND l.kind = 'word' AND l.class = 'word' AND l.canon IS NOT NULL) END));
        ELSIF x.kind = 'word' THEN
            IF x.class = 'word' THEN
                -- a word written with a capital inside a sentence (not its first word) is a name: a person, a
                -- place, a title ("The CFO is Sofia Rossi", "HQ in Munich"); a name the lexicon does not know is
                -- never discourse (vocatives, mentions and signatures are read apart)
                IF NOT x.known AND NOT coalesce(x.negated, false) AND NOT clfig[cl[i]]
                   AND NOT (seen AND x.text ~ '^[A-Z\u00C0-\u00DE]') THEN
                    IF NOT cand ? x.canon THEN
                        cand := cand || to_jsonb(x.canon);
                    END IF;
                    IF x.text ~ '^[A-Z\u00C0-\u00DE]' THEN
                        lcaps := lcaps || jsonb_build_array(jsonb_build_array(x.canon, x.text));
                    END IF;
                ELSIF NOT firm ? x.canon THEN
                    firm := firm || to_jsonb(x.canon);
                END IF;
                IF NOT words ? (CASE WHEN x.negated THEN '!' ELSE '' END || x.canon) THEN
                    words := words || to_jsonb(CASE WHEN x.negated THEN '!' ELSE '' END || x.canon);
                END IF;
                IF NOT x.known AND NOT unk ? x.canon THEN
                    unk := unk || to_jsonb(x.canon);
                    IF x.text ~ '^[A-Z\u00C0-\u00DE]' THEN
                        caps := caps || to_jsonb(x.text);
                    END IF;
                END IF;
            ELSIF x.class = 'negator' THEN
                IF x.negated THEN
                    neg := neg + 1;
                END IF;
            ELSIF x.class NOT IN ('neutral', 'discourse') THEN
                IF NOT marks ? (x.class || ':' || x.canon) THEN
                    marks := marks || to_jsonb(x.class || ':' || x.canon);
                END IF;
            END IF;
            seen := seen OR x.class NOT IN ('neutral', 'discourse');
        END IF;
        IF x.kind = 'figure' THEN
            seen := true;
        END IF;
    END LOOP;
    RETURN out;
END
$$;
