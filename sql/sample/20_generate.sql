-- footnote-pg sample ERP: the deterministic data generator.
--
--   SELECT erp.generate_sample();                 -- 2,400 invoices, seed 42
--   SELECT erp.generate_sample(1000000);          -- same shape, 1,000,000 invoices
--
-- Fills every erp table once (the tables must be empty; nothing is deleted),
-- set-based, then ANALYZEs them and returns the row count of each table.
-- The sample's "today" is 2026-08-14: no payment, credit note, ticket or
-- purchase order is dated after it. Pseudo-random numbers come only from
-- hashint8extended(key, seed + salt) and amounts are built from integer cents,
-- so the same (invoices, seed) gives byte-identical data on PostgreSQL 15 to 18.
--
-- The fixed case, at every size and seed: customer 4471 Bergmann Logistik GmbH
-- (30 days, owner Ana Kovač) owes 43,805.00 on invoices 8812, 8834, 8901 and
-- 8977 as of 2026-08-14, has exactly 2 open tickets (1 high) and nothing else
-- open; supplier 310 Northwind Supply has a pending, unverified e-mail request
-- to move its bank account (ending 4471) to an account ending 9086.

-- A pseudo-random number in [0, 1) for a key and a salt (seed + a constant per use).
CREATE FUNCTION erp._rand(key bigint, salt bigint)
RETURNS double precision
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
    SELECT (pg_catalog.hashint8extended(key, salt) & 2147483647)::double precision / 2147483648.0
$$;

-- A pseudo-random integer in [0, n) for a key and a salt.
CREATE FUNCTION erp._pick(key bigint, salt bigint, n integer)
RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
    SELECT pg_catalog.floor(erp._rand(key, salt) * n)::integer
$$;

-- A date moved off the weekend: Saturday to Friday, Sunday to Monday (2000-01-03 was a Monday).
-- plpgsql on purpose: a SQL function using its argument twice is not inlined, and then costs more.
CREATE FUNCTION erp._weekday(d date)
RETURNS date
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    RETURN d + CASE (d - date '2000-01-03') % 7 WHEN 5 THEN -1 WHEN 6 THEN 1 ELSE 0 END;
END
$$;

-- A payment date moved off the weekend to the Friday before.
CREATE FUNCTION erp._banking_day(d date)
RETURNS date
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    RETURN d - CASE (d - date '2000-01-03') % 7 WHEN 5 THEN 1 WHEN 6 THEN 2 ELSE 0 END;
END
$$;

-- A masked IBAN in groups of four: country, check digits, stars, last four digits.
CREATE FUNCTION erp._mask_iban(country text, check_digits text, iban_length integer, last4 text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
    SELECT pg_catalog.btrim(pg_catalog.regexp_replace(
        country || check_digits || pg_catalog.repeat('*', iban_length - 8) || last4, '(.{4})', '\1 ', 'g'))
$$;

-- Word lists per country for synthetic company names, with VAT rate, phone prefix, IBAN length
-- and the account owners (erp.employees ids) who look after customers there.
CREATE FUNCTION erp._sample_countries()
RETURNS TABLE (ord integer, country text, vat_rate numeric, dial text, iban_length integer,
               sector_first boolean, forms text[], surnames text[], sectors text[], cities text[],
               owners integer[])
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    VALUES
    (0, 'DE', 19.0, '+49', 22, false,
     ARRAY['GmbH', 'GmbH & Co. KG', 'AG', 'KG'],
     ARRAY['Keller', 'Schneider', 'Hoffmann', 'Wagner', 'Becker', 'Schulz', 'Koch', 'Richter', 'Wolf', 'Neumann',
           'Schwarz', 'Zimmermann', 'Krüger', 'Hartmann', 'Lange', 'Werner', 'Lehmann', 'Köhler', 'Maier', 'Böhm'],
     ARRAY['Antriebstechnik', 'Maschinenbau', 'Metallbau', 'Elektrotechnik', 'Kunststofftechnik', 'Logistik',
           'Verpackungen', 'Anlagenbau', 'Fördertechnik', 'Haustechnik', 'Industrieservice', 'Werkzeugbau'],
     ARRAY['Augsburg', 'Bremen', 'Dresden', 'Düsseldorf', 'Essen', 'Freiburg', 'Kassel', 'Mannheim', 'Münster', 'Regensburg'],
     ARRAY[2, 1]),
    (1, 'AT', 20.0, '+43', 20, false,
     ARRAY['GmbH', 'GmbH & Co KG', 'KG'],
     ARRAY['Huber', 'Bauer', 'Pichler', 'Moser', 'Mayr', 'Hofer', 'Leitner', 'Berger', 'Fuchs', 'Eder',
           'Fischer', 'Schmid', 'Winkler', 'Reiter', 'Schwaiger', 'Aigner', 'Brunner', 'Lechner', 'Haas', 'Wallner'],
     ARRAY['Holzbau', 'Metallwaren', 'Stahlbau', 'Elektroanlagen', 'Kältetechnik', 'Landtechnik', 'Transporte',
           'Installationen', 'Maschinenhandel', 'Baustoffe', 'Kunststoffe', 'Gerätebau'],
     ARRAY['Wien', 'Graz', 'Linz', 'Salzburg', 'Innsbruck', 'Klagenfurt', 'Villach', 'Wels', 'St. Pölten', 'Dornbirn'],
     ARRAY[1, 7]),
    (2, 'FR', 20.0, '+33', 27, true,
     ARRAY['SAS', 'SARL', 'SA'],
     ARRAY['Martin', 'Bernard', 'Thomas', 'Petit', 'Robert', 'Richard', 'Durand', 'Leroy', 'Moreau', 'Simon',
           'Laurent', 'Lefebvre', 'Michel', 'Fournier', 'Girard', 'Bonnet', 'Dupont', 'Lambert', 'Fontaine', 'Rousseau'],
     ARRAY['Emballages', 'Mécanique', 'Électricité', 'Transports', 'Chaudronnerie', 'Distribution', 'Menuiserie',
           'Plasturgie', 'Équipements', 'Métallerie', 'Outillage', 'Hydraulique'],
     ARRAY['Lyon', 'Lille', 'Nantes', 'Bordeaux', 'Toulouse', 'Strasbourg', 'Rennes', 'Grenoble', 'Reims', 'Dijon'],
     ARRAY[3]),
    (3, 'NL', 21.0, '+31', 18, false,
     ARRAY['B.V.'],
     ARRAY['De Jong', 'Jansen', 'De Boer', 'Van Dijk', 'Bakker', 'Visser', 'Smit', 'Meijer', 'Mulder', 'De Groot',
           'Bos', 'Vos', 'Peters', 'Hendriks', 'Van Leeuwen', 'Dekker', 'Brouwer', 'De Wit', 'Dijkstra', 'Smits'],
     ARRAY['Installatietechniek', 'Verpakkingen', 'Transport', 'Bouwmaterialen', 'Machinebouw', 'Metaalbewerking',
           'Elektrotechniek', 'Kunststoffen', 'Techniek', 'Logistiek', 'Groothandel', 'Constructie'],
     ARRAY['Amsterdam', 'Utrecht', 'Eindhoven', 'Groningen', 'Tilburg', 'Breda', 'Nijmegen', 'Zwolle', 'Arnhem', 'Venlo'],
     ARRAY[6]),
    (4, 'BE', 21.0, '+32', 16, false,
     ARRAY['NV', 'BV', 'SA'],
     ARRAY['Peeters', 'Janssens', 'Maes', 'Jacobs', 'Mertens', 'Willems', 'Claes', 'Goossens', 'Wouters', 'De Smet',
           'Lambrecht', 'Dumont', 'Leclercq', 'Hermans', 'Michiels', 'Vermeulen', 'Van Damme', 'Cools', 'Pauwels', 'Aerts'],
     ARRAY['Verpakkingen', 'Staalbouw', 'Transport', 'Techniek', 'Logistics', 'Metaal', 'Elektro', 'Bouw',
           'Machines', 'Plastics', 'Industrie', 'Hydraulics'],
     ARRAY['Antwerpen', 'Gent', 'Brugge', 'Leuven', 'Mechelen', 'Hasselt', 'Kortrijk', 'Liège', 'Namur', 'Charleroi'],
     ARRAY[6, 3]),
    (5, 'SE', 25.0, '+46', 24, false,
     ARRAY['AB'],
     ARRAY['Andersson', 'Johansson', 'Karlsson', 'Eriksson', 'Larsson', 'Olsson', 'Persson', 'Svensson', 'Gustafsson', 'Pettersson',
           'Jonsson', 'Lindberg', 'Lindström', 'Lindqvist', 'Nyström', 'Axelsson', 'Holm', 'Sandberg', 'Forsberg', 'Lundgren'],
     ARRAY['Maskin', 'Bygg', 'Elteknik', 'Verkstad', 'Transport', 'Förpackning', 'Industriservice', 'Plast',
           'Hydraulik', 'Stål', 'Logistik', 'Teknik'],
     ARRAY['Stockholm', 'Göteborg', 'Malmö', 'Uppsala', 'Västerås', 'Örebro', 'Linköping', 'Jönköping', 'Norrköping', 'Umeå'],
     ARRAY[4]),
    (6, 'DK', 25.0, '+45', 18, false,
     ARRAY['A/S', 'ApS'],
     ARRAY['Jensen', 'Nielsen', 'Hansen', 'Pedersen', 'Andersen', 'Christensen', 'Larsen', 'Sørensen', 'Rasmussen', 'Jørgensen',
           'Petersen', 'Madsen', 'Kristensen', 'Olsen', 'Thomsen', 'Christiansen', 'Poulsen', 'Johansen', 'Møller', 'Mortensen'],
     ARRAY['Maskinfabrik', 'Emballage', 'Transport', 'El-teknik', 'Stål', 'Byg', 'Plast', 'Hydraulik',
           'Logistik', 'Værktøj', 'Industri', 'Teknik'],
     ARRAY['København', 'Aarhus', 'Odense', 'Aalborg', 'Esbjerg', 'Randers', 'Kolding', 'Horsens', 'Vejle', 'Roskilde'],
     ARRAY[4]),
    (7, 'FI', 25.5, '+358', 18, false,
     ARRAY['Oy'],
     ARRAY['Virtanen', 'Korhonen', 'Mäkinen', 'Nieminen', 'Mäkelä', 'Hämäläinen', 'Laine', 'Heikkinen', 'Koskinen', 'Järvinen',
           'Lehtonen', 'Lehtinen', 'Saarinen', 'Salminen', 'Heinonen', 'Niemi', 'Heikkilä', 'Kinnunen', 'Salonen', 'Turunen'],
     ARRAY['Teollisuus', 'Logistiikka', 'Tekniikka', 'Konepaja', 'Rakennus', 'Sähkö', 'Kuljetus', 'Metalli',
           'Muovi', 'Pakkaus', 'Hydrauliikka', 'Työkalu'],
     ARRAY['Helsinki', 'Espoo', 'Tampere', 'Vantaa', 'Oulu', 'Turku', 'Jyväskylä', 'Lahti', 'Kuopio', 'Pori'],
     ARRAY[4]),
    (8, 'PL', 23.0, '+48', 28, false,
     ARRAY['Sp. z o.o.', 'S.A.', 'Sp.j.'],
     ARRAY['Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik', 'Kowalczyk', 'Kamiński', 'Lewandowski', 'Zieliński', 'Szymański', 'Woźniak',
           'Dąbrowski', 'Kozłowski', 'Jankowski', 'Mazur', 'Kwiatkowski', 'Krawczyk', 'Piotrowski', 'Grabowski', 'Pawłowski', 'Michalski'],
     ARRAY['Logistyka', 'Budownictwo', 'Elektro', 'Stal', 'Transport', 'Opakowania', 'Maszyny', 'Instalacje',
           'Metal', 'Tworzywa', 'Hydraulika', 'Serwis'],
     ARRAY['Warszawa', 'Kraków', 'Łódź', 'Wrocław', 'Poznań', 'Gdańsk', 'Szczecin', 'Katowice', 'Lublin', 'Bydgoszcz'],
     ARRAY[7]),
    (9, 'IT', 22.0, '+39', 27, true,
     ARRAY['S.r.l.', 'S.p.A.'],
     ARRAY['Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo', 'Conti', 'De Luca',
           'Mancini', 'Costa', 'Giordano', 'Rizzo', 'Lombardi', 'Moretti', 'Barbieri', 'Fontana', 'Santoro', 'Mariani'],
     ARRAY['Meccanica', 'Costruzioni', 'Imballaggi', 'Trasporti', 'Impianti', 'Carpenteria', 'Elettromeccanica',
           'Plastica', 'Forniture', 'Automazione', 'Minuteria', 'Oleodinamica'],
     ARRAY['Milano', 'Torino', 'Brescia', 'Monza', 'Verona', 'Bologna', 'Modena', 'Padova', 'Vicenza', 'Parma'],
     ARRAY[5]),
    (10, 'ES', 21.0, '+34', 24, true,
     ARRAY['S.L.', 'S.A.'],
     ARRAY['García', 'Martínez', 'López', 'Sánchez', 'Pérez', 'Gómez', 'Fernández', 'Moreno', 'Jiménez', 'Ruiz',
           'Navarro', 'Romero', 'Torres', 'Domínguez', 'Vázquez', 'Castro', 'Ortega', 'Serrano', 'Molina', 'Delgado'],
     ARRAY['Suministros', 'Talleres', 'Distribuciones', 'Construcciones', 'Transportes', 'Embalajes', 'Instalaciones',
           'Montajes', 'Maquinaria', 'Plásticos', 'Aceros', 'Hidráulica'],
     ARRAY['Madrid', 'Barcelona', 'Valencia', 'Sevilla', 'Zaragoza', 'Bilbao', 'Málaga', 'Murcia', 'Valladolid', 'Vigo'],
     ARRAY[5]),
    (11, 'CZ', 21.0, '+420', 24, true,
     ARRAY['s.r.o.', 'a.s.'],
     ARRAY['Novák', 'Svoboda', 'Novotný', 'Dvořák', 'Černý', 'Procházka', 'Kučera', 'Veselý', 'Horák', 'Němec',
           'Pokorný', 'Marek', 'Pospíšil', 'Hájek', 'Král', 'Jelínek', 'Růžička', 'Beneš', 'Fiala', 'Sedláček'],
     ARRAY['Strojírny', 'Stavby', 'Elektro', 'Logistika', 'Kovovýroba', 'Doprava', 'Obaly', 'Plasty',
           'Montáže', 'Technika', 'Hydraulika', 'Nástroje'],
     ARRAY['Praha', 'Brno', 'Ostrava', 'Plzeň', 'Liberec', 'Olomouc', 'Zlín', 'Pardubice', 'Jihlava', 'Kolín'],
     ARRAY[7, 1]),
    -- Used by hand-written records only, never for synthetic names.
    (12, 'NO', 25.0, '+47', 15, false, ARRAY['AS'], NULL, NULL, NULL, ARRAY[4])
$$;

-- Fill every erp table (they must be empty) and return the row count of each.
CREATE FUNCTION erp.generate_sample(invoices integer DEFAULT 2400, seed integer DEFAULT 42)
RETURNS jsonb
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
SET work_mem = '256MB'
SET maintenance_work_mem = '256MB'
AS $fn$
DECLARE
    v_n      integer := invoices;
    v_seed   bigint := seed;
    v_today  constant date := date '2026-08-14';    -- the sample's "today"
    v_day0   constant date := date '2025-01-01';    -- first issue date (FY2025 starts)
    v_days   constant integer := date '2026-08-14' - date '2025-01-01' + 1;  -- 591 days of invoicing
    v_gen    integer;   -- generated invoices; the 4 fixed ones of customer 4471 come on top
    v_cust   integer;   -- customers, 4471 included
    v_supp   integer;   -- suppliers
    v_po     integer;   -- purchase orders
    v_wsum   bigint;    -- total customer weight (invoice share)
    v_result jsonb;
    v_ddl    record;
    v_redo   text[] := '{}';   -- statements that re-create what the bulk load dropped
BEGIN
    IF v_n IS NULL OR v_n < 4 OR v_seed IS NULL THEN
        RAISE EXCEPTION 'erp.generate_sample: invoices must be at least 4 and seed not null (got %, %)', v_n, v_seed;
    END IF;
    IF EXISTS (SELECT FROM erp.customers) OR EXISTS (SELECT FROM erp.invoices) OR EXISTS (SELECT FROM erp.employees) THEN
        RAISE EXCEPTION 'erp.generate_sample: the erp tables must be empty';
    END IF;

    -- Bulk load as pg_restore does: drop the foreign keys and the plain (non-constraint)
    -- indexes of the erp tables, load, then re-create them from their own definitions.
    -- Nothing but DDL is dropped; a failure rolls everything back.
    FOR v_ddl IN
        SELECT 1 AS phase, format('DROP INDEX %s', i.indexrelid::regclass) AS drop_sql,
               pg_get_indexdef(i.indexrelid) AS create_sql
        FROM pg_index AS i JOIN pg_class AS t ON t.oid = i.indrelid
        WHERE t.relnamespace = 'erp'::regnamespace
          AND NOT EXISTS (SELECT FROM pg_constraint AS k WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid)
        UNION ALL
        SELECT 2, format('ALTER TABLE %s DROP CONSTRAINT %I', k.conrelid::regclass, k.conname),
               format('ALTER TABLE %s ADD CONSTRAINT %I %s', k.conrelid::regclass, k.conname, pg_get_constraintdef(k.oid))
        FROM pg_constraint AS k
        WHERE k.contype = 'f' AND k.connamespace = 'erp'::regnamespace
        ORDER BY 1, 2
    LOOP
        EXECUTE v_ddl.drop_sql;
        v_redo := v_redo || v_ddl.create_sql;
    END LOOP;

    v_gen  := v_n - 4;
    v_cust := greatest(56, v_n / 45);
    v_supp := 15 + v_n / 5000;
    v_po   := greatest(300, v_n / 8);

    ---------------------------------------------------------------- employees
    INSERT INTO erp.employees (id, name, email, title) VALUES
        (1, 'Ana Kovač',       'ana.kovac@elbwerk.example',       'Key Account Manager'),
        (2, 'Jonas Weber',     'jonas.weber@elbwerk.example',     'Account Manager Germany'),
        (3, 'Marie Dubois',    'marie.dubois@elbwerk.example',    'Account Manager France'),
        (4, 'Lars Nilsson',    'lars.nilsson@elbwerk.example',    'Account Manager Nordics'),
        (5, 'Sofia Rossi',     'sofia.rossi@elbwerk.example',     'Account Manager Southern Europe'),
        (6, 'Pieter de Vries', 'pieter.devries@elbwerk.example',  'Account Manager Benelux'),
        (7, 'Zoran Petrović',  'zoran.petrovic@elbwerk.example',  'Account Manager Central Europe');

    ---------------------------------------------------------------- customers
    -- ids 4401.. ascending; 4471 is always Bergmann Logistik GmbH, the others
    -- skip it. The first 55 are hand-written, further ones synthetic
    -- (surname + trade + city + legal form, unique by construction).
    INSERT INTO erp.customers (id, customer_number, name, country, city, payment_terms_days,
                               account_owner_id, credit_limit)
    WITH hand (k, name, country, city, terms, owner) AS (VALUES
        (0,  'Müller Präzisionstechnik GmbH',          'DE', 'Stuttgart',   30, 2),
        (1,  'Łódź Logistics Sp. z o.o.',              'PL', 'Łódź',        30, 7),
        (2,  'Lefèvre Emballages SAS',                 'FR', 'Lyon',        45, 3),
        (3,  'Van den Broek Installatietechniek B.V.', 'NL', 'Utrecht',     30, 6),
        (4,  'Nordström Maskin AB',                    'SE', 'Göteborg',    30, 4),
        (5,  'Steiner Holzbau GmbH',                   'AT', 'Graz',        30, 1),
        (6,  'Officine Meccaniche Ferraro S.p.A.',     'IT', 'Brescia',     60, 5),
        (7,  'Talleres Industriales Ibáñez S.L.',      'ES', 'Zaragoza',    60, 5),
        (8,  'Strojírny Novotný s.r.o.',               'CZ', 'Brno',        30, 7),
        (9,  'Schäfer Antriebstechnik GmbH & Co. KG',  'DE', 'Bielefeld',   30, 2),
        (10, 'Hvidberg Emballage A/S',                 'DK', 'Aarhus',      30, 4),
        (11, 'Kowalczyk Budownictwo S.A.',             'PL', 'Kraków',      45, 7),
        (12, 'Électricité Industrielle Roussel SAS',   'FR', 'Lille',       45, 3),
        (13, 'Hoekstra Agri Supplies B.V.',            'NL', 'Groningen',   30, 6),
        (14, 'Virtanen Teollisuus Oy',                 'FI', 'Tampere',     14, 4),
        (15, 'Gruber & Söhne Metallwaren GmbH',        'AT', 'Linz',        30, 1),
        (16, 'Fischer Lebensmitteltechnik GmbH',       'DE', 'Hannover',    30, 2),
        (17, 'Bergmann Bau AG',                        'DE', 'Dortmund',    45, 2),
        (18, 'Costruzioni Bellini S.r.l.',             'IT', 'Verona',      60, 5),
        (19, 'Distribuciones Ortega Hermanos S.A.',    'ES', 'Valencia',    45, 5),
        (20, 'Wiśniewski Elektro Sp. z o.o.',          'PL', 'Poznań',      30, 7),
        (21, 'Hansen & Dahl Logistikk AS',             'NO', 'Bergen',      30, 4),
        (22, 'Kühne Kunststofftechnik GmbH',           'DE', 'Chemnitz',    30, 2),
        (23, 'Ateliers Moreau Mécanique SA',           'FR', 'Nantes',      45, 3),
        (24, 'De Jong Verpakkingen B.V.',              'NL', 'Rotterdam',   30, 6),
        (25, 'Lindqvist Elteknik AB',                  'SE', 'Malmö',       30, 4),
        (26, 'Pichler Haustechnik GmbH',               'AT', 'Innsbruck',   30, 1),
        (27, 'Svoboda Stavby a.s.',                    'CZ', 'Ostrava',     30, 7),
        (28, 'Meccanica Rinaldi S.p.A.',               'IT', 'Bologna',     60, 5),
        (29, 'Vogel Medizintechnik GmbH',              'DE', 'Tuttlingen',  14, 1),
        (30, 'Maison Girard Distribution SAS',         'FR', 'Bordeaux',    45, 3),
        (31, 'Bakker Bouwmaterialen B.V.',             'NL', 'Eindhoven',   30, 6),
        (32, 'Mäkinen Logistiikka Oy',                 'FI', 'Oulu',        30, 4),
        (33, 'Meble Zieliński Sp. z o.o.',             'PL', 'Gdańsk',      30, 7),
        (34, 'Hofmann Verpackungen GmbH',              'DE', 'Nürnberg',    30, 1),
        (35, 'Suministros Navarro S.L.',               'ES', 'Bilbao',      60, 5),
        (36, 'Krenn Kältetechnik GmbH',                'AT', 'Salzburg',    30, 1),
        (37, 'Ferroviaria Colombo S.r.l.',             'IT', 'Milano',      60, 5),
        (38, 'Janssens & Peeters NV',                  'BE', 'Antwerpen',   30, 6),
        (39, 'Østergaard Maskinfabrik A/S',            'DK', 'Odense',      30, 4),
        (40, 'Dvořák Elektrotechnika s.r.o.',          'CZ', 'Plzeň',       30, 7),
        (41, 'Weiß & Partner Anlagenbau GmbH',         'DE', 'Leipzig',     45, 2),
        (42, 'Chaudronnerie Blanchard SARL',           'FR', 'Rouen',       30, 3),
        (43, 'Visser Transport B.V.',                  'NL', 'Venlo',       14, 6),
        (44, 'Sjöberg Bygg AB',                        'SE', 'Uppsala',     30, 4),
        (45, 'Nowak Stal S.A.',                        'PL', 'Katowice',    45, 7),
        (46, 'Lombardi Imballaggi S.r.l.',             'IT', 'Monza',       60, 5),
        (47, 'Hernández Climatización S.L.',           'ES', 'Sevilla',     60, 5),
        (48, 'Braun Feinmechanik GmbH',                'DE', 'Jena',        30, 2),
        (49, 'Wimmer Landtechnik GmbH',                'AT', 'Wels',        30, 1),
        (50, 'Vidal Embalajes S.A.',                   'ES', 'Barcelona',   45, 5),
        (51, 'Nieminen Tekniikka Oy',                  'FI', 'Espoo',       30, 4),
        (52, 'Horák Logistika s.r.o.',                 'CZ', 'Praha',       30, 7),
        (53, 'Roux Agroalimentaire SAS',               'FR', 'Toulouse',    45, 3),
        (54, 'Krause Industrieservice GmbH',           'DE', 'Hamburg',     30, 2)),
    slot AS (
        SELECT k, CASE WHEN 4401 + k < 4471 THEN 4401 + k ELSE 4402 + k END::bigint AS id
        FROM generate_series(0, v_cust - 2) AS k),
    syn AS (
        SELECT s.k, s.id, w.country, w.cities, w.owners, w.forms, w.sector_first, w.surnames, w.sectors,
               (s.k - 55) / 12 AS j,
               (((((s.k - 55) / 12)::bigint * 7919 + v_seed * 101) % 2400) + 2400) % 2400 AS m
        FROM slot AS s
        JOIN erp._sample_countries() AS w ON w.ord = (s.k - 55) % 12
        WHERE s.k >= 55),
    synthetic AS (
        SELECT y.k, y.id,
               CASE WHEN y.sector_first
                    THEN y.sectors[1 + (y.m / 20) % 12] || ' ' || y.surnames[1 + y.m % 20]
                    ELSE y.surnames[1 + y.m % 20] || ' ' || y.sectors[1 + (y.m / 20) % 12] END
                   || ' ' || y.cities[1 + y.m / 240]
                   || CASE WHEN y.j >= 2400 THEN ' ' || (y.j / 2400 + 1) ELSE '' END
                   || ' ' || y.forms[1 + y.j % cardinality(y.forms)] AS name,
               y.country, y.cities[1 + y.m / 240] AS city,
               CASE WHEN y.country IN ('IT', 'ES')
                    THEN (ARRAY[60, 60, 60, 45, 45, 30])[1 + erp._pick(y.id, v_seed + 3, 6)]
                    ELSE (ARRAY[14, 30, 30, 30, 30, 30, 45, 45, 60, 30])[1 + erp._pick(y.id, v_seed + 3, 10)] END AS terms,
               y.owners[1 + y.j % cardinality(y.owners)] AS owner
        FROM syn AS y),
    everyone AS (
        SELECT s.id, h.name, h.country, h.city, h.terms, h.owner
        FROM slot AS s JOIN hand AS h ON h.k = s.k
        UNION ALL
        SELECT id, name, country, city, terms, owner FROM synthetic
        UNION ALL
        SELECT 4471, 'Bergmann Logistik GmbH', 'DE', 'Bremen', 30, 1)
    SELECT e.id, 'C-' || e.id, e.name, e.country, e.city, e.terms, e.owner,
           CASE WHEN e.id = 4471 THEN 75000.00
                ELSE (5000 * (4 + erp._pick(e.id, v_seed + 4, 57)))::numeric(14,2) END
    FROM everyone AS e;

    -- Generation-only facts per customer: invoice share (weight), payer profile
    -- (0 punctual, 1 late, 2 very late, 3 partial payer), direct debit, VAT rate.
    CREATE TEMP TABLE erp_sample_customer ON COMMIT DROP AS
    SELECT c.id, c.payment_terms_days AS terms, w.vat_rate,
           CASE WHEN c.id = 4471 THEN 0 ELSE 1 + erp._pick(c.id, v_seed + 11, 9) END AS weight,
           CASE WHEN c.id = 4471 THEN 0
                WHEN erp._rand(c.id, v_seed + 21) < 0.45 THEN 0
                WHEN erp._rand(c.id, v_seed + 21) < 0.70 THEN 1
                WHEN erp._rand(c.id, v_seed + 21) < 0.86 THEN 2
                ELSE 3 END AS profile,
           (c.id <> 4471 AND c.country IN ('DE', 'AT', 'NL', 'BE')
            AND erp._rand(c.id, v_seed + 22) < 0.30) AS direct_debit
    FROM erp.customers AS c
    JOIN erp._sample_countries() AS w ON w.country = c.country;
    -- Direct debit only for punctual payers.
    UPDATE erp_sample_customer SET direct_debit = false WHERE profile <> 0;

    -- Every customer but 4471 owns [lo, lo + weight) of the slots 0 .. v_wsum - 1.
    CREATE TEMP TABLE erp_sample_slot ON COMMIT DROP AS
    SELECT c.id, c.lo + k AS slot
    FROM (SELECT id, weight, sum(weight) OVER (ORDER BY id) - weight AS lo
          FROM erp_sample_customer WHERE id <> 4471) AS c,
         generate_series(0, c.weight - 1) AS k;
    SELECT count(*) INTO v_wsum FROM erp_sample_slot;
    ANALYZE erp_sample_customer;
    ANALYZE erp_sample_slot;

    ---------------------------------------------------------------- invoices
    -- Ids from 7001 up, skipping the fixed 8812, 8834, 8901, 8977; issue dates
    -- spread evenly over 2025-01-01 .. 2026-08-14 (+-3 days, weekdays only).
    -- Customer 4471 gets about its share of invoices issued up to 2026-06-01 only.
    INSERT INTO erp.invoices (id, number, customer_id, issue_date, due_date, net, tax, gross)
    WITH g AS MATERIALIZED (
        SELECT x.id,
               erp._weekday(v_day0 + least(v_days - 1, greatest(0,
                   ((gg::bigint * v_days) / greatest(v_gen, 1))::integer + erp._pick(x.id, v_seed + 1, 7) - 3))) AS issue_date
        FROM generate_series(0, v_gen - 1) AS gg
        CROSS JOIN LATERAL (SELECT (7001 + gg + (7001 + gg >= 8812)::integer + (7001 + gg >= 8833)::integer
                                    + (7001 + gg >= 8899)::integer + (7001 + gg >= 8974)::integer)::bigint AS id) AS x),
    picked AS (
        SELECT g.id, g.issue_date,
               CASE WHEN g.issue_date <= date '2026-06-01' AND erp._rand(g.id, v_seed + 2) < 1.0 / v_cust
                    THEN 4471 ELSE s.id END AS customer_id,
               -- net in cents: 150.00 .. 45,150.00, most of them a few thousand
               15000 + floor(erp._rand(g.id, v_seed + 5) * erp._rand(g.id, v_seed + 5)
                             * erp._rand(g.id, v_seed + 6) * 4500000)::bigint AS net_cents
        FROM g
        JOIN erp_sample_slot AS s ON s.slot = floor(erp._rand(g.id, v_seed + 7) * v_wsum)::bigint),
    priced AS (
        SELECT p.id, p.customer_id, p.issue_date, p.issue_date + c.terms AS due_date,
               (p.net_cents / 100.0)::numeric(14,2) AS net,
               round((p.net_cents / 100.0) * c.vat_rate / 100, 2)::numeric(14,2) AS tax
        FROM picked AS p JOIN erp_sample_customer AS c ON c.id = p.customer_id),
    fixed (id, issue_date, due_date, gross) AS (VALUES
        (8812::bigint, date '2026-04-02', date '2026-05-02', 24450.00),
        (8834, date '2026-04-20', date '2026-05-20', 11200.00),
        (8901, date '2026-05-19', date '2026-06-18',  9705.00),
        (8977, date '2026-06-15', date '2026-07-15',  4450.00))
    SELECT id, 'INV-' || to_char(issue_date, 'YYYY') || '-' || id, customer_id, issue_date, due_date,
           net, tax, net + tax
    FROM priced
    UNION ALL
    SELECT id, 'INV-' || to_char(issue_date, 'YYYY') || '-' || id, 4471, issue_date, due_date,
           round(gross / 1.19, 2), gross - round(gross / 1.19, 2), gross
    FROM fixed;

    ---------------------------------------------------------------- credit notes
    -- On about 3% of invoices (never customer 4471's): a full cancellation or a
    -- partial credit of 5-60%, issued 2-26 days after the invoice, not after today.
    -- Applied to the invoice on issue, except about a third of those of the last 45 days: still open.
    INSERT INTO erp.credit_notes (id, number, invoice_id, customer_id, issue_date, net, tax, gross, reason, applied_on)
    WITH cn AS (
        SELECT i.id AS invoice_id, i.customer_id,
               least(v_today, erp._weekday(i.issue_date + 2 + erp._pick(i.id, v_seed + 32, 25))) AS issue_date,
               CASE WHEN erp._rand(i.id, v_seed + 33) < 0.2 THEN 100 ELSE 5 + erp._pick(i.id, v_seed + 34, 56) END AS pct,
               i.net, i.tax,
               erp._pick(i.id, v_seed + 35, 5) AS r
        FROM erp.invoices AS i
        WHERE erp._rand(i.id, v_seed + 31) < 0.03 AND i.customer_id <> 4471),
    amounts AS (
        SELECT cn.*, round(cn.net * cn.pct / 100, 2) AS cnet, round(cn.tax * cn.pct / 100, 2) AS ctax
        FROM cn),
    numbered AS (
        SELECT a.*, (5001 + row_number() OVER (ORDER BY a.issue_date, a.invoice_id) - 1)::bigint AS id
        FROM amounts AS a)
    SELECT n.id, 'CN-' || to_char(n.issue_date, 'YYYY') || '-' || n.id, n.invoice_id, n.customer_id, n.issue_date,
           n.cnet, n.ctax, n.cnet + n.ctax,
           CASE WHEN n.pct = 100
                THEN (ARRAY['Invoice cancelled: duplicate billing', 'Goods returned in full',
                            'Invoice cancelled: wrong customer', 'Order cancelled before dispatch',
                            'Goods returned in full'])[1 + n.r]
                ELSE (ARRAY['Price correction', 'Damaged goods returned', 'Short delivery',
                            'Volume rebate', 'Quantity discount not applied'])[1 + n.r] END,
           CASE WHEN n.issue_date > v_today - 45 AND erp._pick(n.invoice_id, v_seed + 36, 3) = 0 THEN NULL
                ELSE n.issue_date END
    FROM numbered AS n;

    -- One credit note names no invoice: a rebate on 2024's business to Horák Logistika s.r.o. (customer 4453), issued
    -- before the sample's first invoice and never set off against one, so a credit on its account.
    INSERT INTO erp.credit_notes (id, number, invoice_id, customer_id, issue_date, net, tax, gross, reason, applied_on)
    VALUES (4999, 'CN-2024-4999', NULL, 4453, date '2024-12-16', 250.00, 52.50, 302.50, 'Volume rebate 2024', NULL);

    ---------------------------------------------------------------- instalments
    -- A quarter of the invoices of customers on 60-day terms (never customer 4471's) fall due in two halves:
    -- after 30 days and on the due date.
    INSERT INTO erp.invoice_instalments (invoice_id, instalment, due_date, amount)
    SELECT i.id, k.n, CASE k.n WHEN 1 THEN i.issue_date + 30 ELSE i.due_date END,
           CASE k.n WHEN 1 THEN round(i.gross / 2, 2) ELSE i.gross - round(i.gross / 2, 2) END
    FROM erp.invoices AS i
    JOIN erp_sample_customer AS c ON c.id = i.customer_id
    CROSS JOIN (VALUES (1::smallint), (2::smallint)) AS k(n)
    WHERE c.terms = 60 AND i.customer_id <> 4471 AND erp._rand(i.id, v_seed + 37) < 0.25;

    ---------------------------------------------------------------- payments
    -- Each invoice is due (gross - credit notes); the payer profile decides when
    -- and how it is paid: pattern 0 unpaid, 1 one partial payment only, 2 two
    -- instalments, 3 in full. Payments fall on weekdays (never before the invoice:
    -- issue and credit note dates are weekdays); those after today have not happened yet.
    INSERT INTO erp.payments (id, invoice_id, customer_id, paid_on, amount, method)
    WITH base AS (
        SELECT i.id, i.customer_id, i.issue_date, i.due_date, i.gross,
               i.gross - coalesce(cn.gross, 0) AS target,
               greatest(i.issue_date, cn.issue_date) AS earliest,
               c.profile, c.direct_debit,
               erp._rand(i.id, v_seed + 41) AS u1,
               erp._rand(i.id, v_seed + 42) AS u2
        FROM erp.invoices AS i
        JOIN erp_sample_customer AS c ON c.id = i.customer_id
        LEFT JOIN erp.credit_notes AS cn ON cn.invoice_id = i.id
        WHERE i.id NOT IN (8812, 8834, 8901, 8977)),
    plan AS (
        SELECT b.id, b.customer_id, b.due_date, b.target, b.earliest,
               CASE WHEN b.customer_id = 4471 THEN 3
                    WHEN b.direct_debit THEN CASE WHEN b.u1 < 0.002 THEN 0 ELSE 3 END
                    WHEN b.profile = 0 THEN CASE WHEN b.u1 < 0.002 THEN 0 WHEN b.u1 < 0.006 THEN 1 WHEN b.u1 < 0.04 THEN 2 ELSE 3 END
                    WHEN b.profile = 1 THEN CASE WHEN b.u1 < 0.006 THEN 0 WHEN b.u1 < 0.018 THEN 1 WHEN b.u1 < 0.08 THEN 2 ELSE 3 END
                    WHEN b.profile = 2 THEN CASE WHEN b.u1 < 0.025 THEN 0 WHEN b.u1 < 0.050 THEN 1 WHEN b.u1 < 0.18 THEN 2 ELSE 3 END
                    ELSE                    CASE WHEN b.u1 < 0.015 THEN 0 WHEN b.u1 < 0.100 THEN 1 WHEN b.u1 < 0.70 THEN 2 ELSE 3 END
               END AS pattern,
               CASE WHEN b.customer_id = 4471 THEN -floor(b.u2 * 8)::integer
                    WHEN b.direct_debit THEN 0
                    WHEN b.profile = 0 THEN -10 + floor(b.u2 * 14)::integer
                    WHEN b.profile = 1 THEN 3 + floor(b.u2 * 40)::integer
                    WHEN b.profile = 2 THEN 25 + floor(b.u2 * 100)::integer
                    ELSE floor(b.u2 * 30)::integer
               END AS d1,
               20 + erp._pick(b.id, v_seed + 43, 60) AS gap,
               30 + erp._pick(b.id, v_seed + 44, 41) AS pct,
               CASE WHEN b.direct_debit THEN 'SEPA direct debit'
                    WHEN b.gross < 1500 AND erp._rand(b.id, v_seed + 45) < 0.25 THEN 'card'
                    ELSE 'bank transfer' END AS method
        FROM base AS b
        WHERE b.target > 0),
    pay AS (
        SELECT p.id AS invoice_id, p.customer_id, 1 AS seq,
               erp._banking_day(greatest(p.earliest, p.due_date + p.d1)) AS paid_on,
               CASE WHEN p.pattern = 3 THEN p.target ELSE round(p.target * p.pct / 100, 2) END AS amount,
               p.method
        FROM plan AS p WHERE p.pattern >= 1
        UNION ALL
        SELECT p.id, p.customer_id, 2,
               erp._banking_day(greatest(p.earliest, p.due_date + p.d1 + p.gap)),
               p.target - round(p.target * p.pct / 100, 2),
               p.method
        FROM plan AS p WHERE p.pattern = 2
        UNION ALL
        SELECT 8812, 4471, 1, date '2026-05-28', 6000.00, 'bank transfer')
    SELECT (30001 + row_number() OVER (ORDER BY y.paid_on, y.invoice_id, y.seq) - 1)::bigint,
           y.invoice_id, y.customer_id, y.paid_on, y.amount, y.method
    FROM pay AS y
    WHERE y.paid_on <= v_today;

    -- Money on account: about one customer in nine (never 4471) sent a payment that names no invoice yet.
    INSERT INTO erp.payments (id, invoice_id, customer_id, paid_on, amount, method)
    SELECT (SELECT max(p.id) FROM erp.payments AS p) + row_number() OVER (ORDER BY c.id), NULL, c.id,
           erp._banking_day(v_today - 3 - erp._pick(c.id, v_seed + 47, 40)),
           (200 + erp._pick(c.id, v_seed + 48, 4800))::numeric(14,2), 'bank transfer'
    FROM erp.customers AS c
    WHERE c.id <> 4471 AND erp._pick(c.id, v_seed + 46, 9) = 0;

    ---------------------------------------------------------------- tickets
    -- 0-5 per customer over the two years, most closed within days or weeks; some
    -- never closed; about one customer in eleven has a fresh one still open.
    -- Customer 4471: exactly the five tickets below, two of them open.
    INSERT INTO erp.tickets (id, customer_id, subject, severity, status, opened_on, closed_on)
    WITH t AS (
        SELECT c.id AS customer_id, c.id * 8 + j AS key,
               v_day0 + erp._pick(c.id * 8 + j, v_seed + 62, v_days) AS opened_on,
               erp._rand(c.id * 8 + j, v_seed + 63) AS us,
               -- a few low or medium ones are never closed
               erp._rand(c.id * 8 + j, v_seed + 65) < 0.05 AND erp._rand(c.id * 8 + j, v_seed + 63) < 0.75 AS stale
        FROM erp.customers AS c
        CROSS JOIN LATERAL generate_series(1, erp._pick(c.id, v_seed + 61, 6)) AS j
        WHERE c.id <> 4471
        UNION ALL
        SELECT c.id, c.id * 8 + 7,
               v_today - 1 - erp._pick(c.id, v_seed + 64, 20),
               0.5 + 0.15 * (c.id % 4), true
        FROM erp.customers AS c
        WHERE c.id % 11 = 3 AND c.id <> 4471),
    s AS (
        SELECT t.customer_id, t.key, t.opened_on, t.stale,
               CASE WHEN t.us < 0.35 THEN 'low' WHEN t.us < 0.75 THEN 'medium'
                    WHEN t.us < 0.93 THEN 'high' ELSE 'critical' END AS severity
        FROM t),
    d AS (
        SELECT s.*,
               s.opened_on + CASE s.severity
                   WHEN 'critical' THEN erp._pick(s.key, v_seed + 66, 5)
                   WHEN 'high' THEN 1 + erp._pick(s.key, v_seed + 66, 14)
                   WHEN 'medium' THEN 2 + erp._pick(s.key, v_seed + 66, 29)
                   ELSE 3 + erp._pick(s.key, v_seed + 66, 43) END AS closes_on
        FROM s),
    generated AS (
        SELECT d.customer_id, d.key,
               (ARRAY['Delivery arrived damaged', 'Missing items in delivery', 'Wrong item delivered',
                      'Invoice address incorrect', 'Request for copy of invoice', 'Price on invoice differs from order',
                      'VAT ID missing on invoice', 'Delivery later than confirmed', 'Return authorisation requested',
                      'Certificate of conformity missing', 'EDI order not received', 'Web shop login not working',
                      'Pallet exchange not credited', 'Quantity discount not applied', 'Delivery note missing',
                      'Request for updated price list'])[1 + erp._pick(d.key, v_seed + 67, 16)] AS subject,
               d.severity,
               CASE WHEN NOT d.stale AND d.closes_on <= v_today THEN 'closed'
                    WHEN erp._rand(d.key, v_seed + 68) < 0.5 THEN 'open' ELSE 'in_progress' END AS status,
               d.opened_on,
               CASE WHEN NOT d.stale AND d.closes_on <= v_today THEN d.closes_on END AS closed_on
        FROM d
        UNION ALL
        SELECT 4471, 0, subject, severity, status, opened_on, closed_on
        FROM (VALUES
            ('Request for updated price list 2025',            'low',    'closed',      date '2025-02-11', date '2025-02-13'),
            ('Damaged pallet on delivery to Bremen depot',      'medium', 'closed',      date '2025-09-02', date '2025-09-09'),
            ('Web shop access for new purchasing clerk',        'low',    'closed',      date '2026-02-10', date '2026-02-11'),
            ('Disputed freight surcharges on INV-2026-8812',    'high',   'in_progress', date '2026-06-03', NULL::date),
            ('Proof of delivery missing for July shipments',    'medium', 'open',        date '2026-07-22', NULL::date)
        ) AS f (subject, severity, status, opened_on, closed_on))
    SELECT (1201 + row_number() OVER (ORDER BY x.opened_on, x.customer_id, x.key) - 1)::bigint,
           x.customer_id, x.subject, x.severity, x.status, x.opened_on, x.closed_on
    FROM generated AS x;

    ---------------------------------------------------------------- suppliers
    -- 301..315 hand-written (310 is Northwind Supply), more synthetic ones for larger sizes.
    INSERT INTO erp.suppliers (id, supplier_number, name, country, city, phone, phone_since,
                               phone_verified, phone_verification)
    WITH hand (id, name, country, city, phone, phone_since, verification) AS (VALUES
        (301::bigint, 'Hansa Stahlhandel GmbH',           'DE', 'Hamburg',       '+49 40 7523 1180',  date '2018-03-12', 'callback to number on file'),
        (302, 'Kartonagen Schulte GmbH',                  'DE', 'Bielefeld',     '+49 521 9640 372',  date '2019-06-03', 'confirmed at supplier onboarding'),
        (303, 'Van der Linden Verpakkingen B.V.',         'NL', 'Rotterdam',     '+31 10 452 7730',   date '2020-01-20', 'callback to number on file'),
        (304, 'Nordisk Kullager AB',                      'SE', 'Göteborg',      '+46 31 704 5520',   date '2017-10-02', 'confirmed at supplier onboarding'),
        (305, 'Fratelli Conti S.p.A.',                    'IT', 'Brescia',       '+39 030 241 7765',  date '2018-05-14', 'callback to number on file'),
        (306, 'Química del Ebro S.L.',                    'ES', 'Zaragoza',      '+34 976 45 21 90',  date '2021-02-15', 'verified against company register'),
        (307, 'Elektrotechnika Sedlák s.r.o.',            'CZ', 'Brno',          '+420 541 226 318',  date '2020-09-07', 'callback to number on file'),
        (308, 'Tecnoplast Lombardia S.r.l.',              'IT', 'Monza',         '+39 039 232 4410',  date '2019-11-18', 'confirmed at supplier onboarding'),
        (309, 'Sørensen Hydraulik A/S',                   'DK', 'Esbjerg',       '+45 75 12 44 08',   date '2021-04-26', 'callback to number on file'),
        (310, 'Northwind Supply',                         'DE', 'Hamburg',       '+49 40 3861 2244',  date '2023-07-03', 'callback to number on file'),
        (311, 'Lagerwall Transport AB',                   'SE', 'Helsingborg',   '+46 42 210 6630',   date '2019-03-04', 'callback to number on file'),
        (312, 'Brandt Industriebedarf GmbH',              'DE', 'Dortmund',      '+49 231 9822 415',  date '2016-08-22', 'confirmed at supplier onboarding'),
        (313, 'Outillage Perrin SARL',                    'FR', 'Saint-Étienne', '+33 4 77 92 31 40', date '2022-01-10', 'callback to number on file'),
        (314, 'Metalplast Wrocław Sp. z o.o.',            'PL', 'Wrocław',       '+48 71 342 9017',   date '2020-05-25', 'verified against company register'),
        (315, 'Grazer Schraubenwerk GmbH',                'AT', 'Graz',          '+43 316 482 291',   date '2018-09-17', 'callback to number on file')),
    syn AS (
        SELECT 316 + k AS id, w.country, w.dial, w.forms, w.surnames, w.cities, (k / 12) AS m
        FROM generate_series(0, v_supp - 16) AS k
        JOIN erp._sample_countries() AS w ON w.ord = k % 12)
    SELECT id, 'S-' || id, name, country, city, phone, phone_since, true, verification FROM hand
    UNION ALL
    SELECT y.id::bigint, 'S-' || y.id,
           y.surnames[1 + y.m % 20] || ' '
             || (ARRAY['Industrial Supply', 'Packaging', 'Steel Trading', 'Fasteners', 'Components',
                       'Freight Services', 'Plastics', 'Electrical Wholesale', 'Chemicals', 'Tooling'])[1 + (y.m + y.m / 20) % 10]
             || CASE WHEN y.m >= 200 THEN ' ' || (y.m / 200 + 1) ELSE '' END
             || ' ' || y.forms[1],
           y.country, y.cities[1 + y.m % 10],
           y.dial || ' ' || (20 + erp._pick(y.id, v_seed + 71, 80)) || ' '
             || lpad(erp._pick(y.id, v_seed + 72, 10000)::text, 4, '0') || ' '
             || lpad(erp._pick(y.id, v_seed + 73, 1000)::text, 3, '0'),
           date '2016-01-04' + erp._pick(y.id, v_seed + 74, 2500),
           true, 'callback to number on file'
    FROM syn AS y;

    ---------------------------------------------------------------- supplier bank accounts
    -- One verified account per supplier (id 900 + supplier id - 300). Supplier 305
    -- moved to a new account in February 2025 after a verified request.
    INSERT INTO erp.supplier_bank_accounts (id, supplier_id, iban_masked, account_ending, added_on, verified, verification)
    WITH a AS (
        SELECT 900 + s.id - 300 AS id, s.id AS supplier_id, w.country, w.iban_length,
               CASE WHEN s.id = 310 THEN '89' ELSE (10 + erp._pick(s.id, v_seed + 75, 90))::text END AS check_digits,
               CASE WHEN s.id = 310 THEN '4471' ELSE lpad(erp._pick(s.id, v_seed + 76, 10000)::text, 4, '0') END AS last4,
               CASE WHEN s.id = 310 THEN s.phone_since ELSE s.phone_since + erp._pick(s.id, v_seed + 77, 20) END AS added_on
        FROM erp.suppliers AS s JOIN erp._sample_countries() AS w ON w.country = s.country)
    SELECT a.id, a.supplier_id, erp._mask_iban(a.country, a.check_digits, a.iban_length, a.last4), a.last4,
           a.added_on, true, 'callback to phone on file ' || to_char(erp._weekday(a.added_on + 2), 'YYYY-MM-DD')
    FROM a
    UNION ALL
    SELECT 900 + v_supp + 1, 305, erp._mask_iban('IT', '60', 27, '3318'), '3318',
           date '2025-02-12', true, 'callback to phone on file 2025-02-11';

    ---------------------------------------------------------------- supplier payments
    -- Northwind Supply: exactly 14 payments, all to its one account ending 4471.
    -- Everyone else: a payment run every 3-7 weeks from 2023-09 (or later) until today.
    INSERT INTO erp.supplier_payments (id, supplier_id, bank_account_id, paid_on, amount, reference)
    WITH other AS (
        SELECT s.id AS supplier_id, a.added_on,
               21 + erp._pick(s.id, v_seed + 81, 25) AS cadence
        FROM erp.suppliers AS s
        JOIN erp.supplier_bank_accounts AS a ON a.id = 900 + s.id - 300
        WHERE s.id <> 310),
    runs AS (
        SELECT o.supplier_id, j,
               erp._weekday(greatest(o.added_on + 7, date '2023-09-01') + erp._pick(o.supplier_id, v_seed + 82, o.cadence)
                            + j * o.cadence + erp._pick(o.supplier_id * 64 + j, v_seed + 83, 5)) AS paid_on
        FROM other AS o, generate_series(0, 60) AS j),
    pays AS (
        SELECT r.supplier_id,
               CASE WHEN r.supplier_id = 305 AND r.paid_on >= date '2025-02-12' THEN 900 + v_supp + 1
                    ELSE 900 + r.supplier_id - 300 END AS bank_account_id,
               r.paid_on,
               ((80000 + floor(erp._rand(r.supplier_id * 64 + r.j, v_seed + 84)
                               * erp._rand(r.supplier_id * 64 + r.j, v_seed + 85) * 4400000)::bigint) / 100.0)::numeric(14,2) AS amount,
               'Payment run ' || to_char(r.paid_on, 'YYYY-MM-DD') || ', supplier invoice '
                 || to_char(r.paid_on, 'YY') || '-' || lpad((1000 + (r.supplier_id * 131 + r.j * 17) % 9000)::text, 4, '0') AS reference
        FROM runs AS r
        WHERE r.paid_on <= v_today
        UNION ALL
        SELECT 310, 910, paid_on, amount, 'Northwind Supply invoice ' || ref
        FROM (VALUES
            (date '2023-09-15', 18240.00, 'NW-23-0871'), (date '2023-12-14', 22615.50, 'NW-23-1164'),
            (date '2024-03-15', 19880.00, 'NW-24-0212'), (date '2024-05-31', 24310.75, 'NW-24-0437'),
            (date '2024-08-15', 21046.20, 'NW-24-0659'), (date '2024-10-31', 26900.00, 'NW-24-0883'),
            (date '2025-01-15', 23455.80, 'NW-24-1120'), (date '2025-03-14', 19720.40, 'NW-25-0188'),
            (date '2025-05-15', 27380.00, 'NW-25-0402'), (date '2025-08-14', 25115.60, 'NW-25-0641'),
            (date '2025-10-15', 22940.00, 'NW-25-0857'), (date '2026-01-15', 28410.30, 'NW-25-1098'),
            (date '2026-04-15', 24775.00, 'NW-26-0263'), (date '2026-07-15', 26130.90, 'NW-26-0519')
        ) AS nw (paid_on, amount, ref))
    SELECT (70001 + row_number() OVER (ORDER BY p.paid_on, p.supplier_id) - 1)::bigint,
           p.supplier_id, p.bank_account_id, p.paid_on, p.amount, p.reference
    FROM pays AS p;

    ---------------------------------------------------------------- supplier invoices
    -- The invoice behind every supplier payment (received 30 days before it was paid, due 30 days after
    -- receipt), and each supplier's open invoices of the last weeks (0-3, some past due).
    -- Northwind Supply: one open invoice, NW-26-0688, due 30.08.2026.
    INSERT INTO erp.supplier_invoices (id, number, supplier_id, invoice_date, due_date, gross)
    WITH paid AS (
        SELECT p.id AS payment_id, p.supplier_id, p.amount,
               erp._weekday(p.paid_on - 30) AS invoice_date,
               coalesce(substring(p.reference FROM 'NW-[0-9]{2}-[0-9]{4}'),
                        substring(p.reference FROM 'supplier invoice ([0-9]{2}-[0-9]{4})$')) AS number
        FROM erp.supplier_payments AS p),
    unpaid AS (
        SELECT s.id AS supplier_id, k,
               erp._weekday(v_today - 5 - erp._pick(s.id * 8 + k, v_seed + 87, 70)) AS invoice_date,
               ((50000 + floor(erp._rand(s.id * 8 + k, v_seed + 88) * erp._rand(s.id * 8 + k, v_seed + 89)
                               * 3000000)::bigint) / 100.0)::numeric(14,2) AS gross
        FROM erp.suppliers AS s, generate_series(0, 2) AS k
        WHERE s.id <> 310 AND k < erp._pick(s.id, v_seed + 86, 4))
    SELECT (60000 + row_number() OVER (ORDER BY p.payment_id))::bigint, p.number, p.supplier_id, p.invoice_date,
           p.invoice_date + 30, p.amount
    FROM paid AS p
    UNION ALL
    SELECT (50000 + row_number() OVER (ORDER BY u.supplier_id, u.k))::bigint,
           to_char(u.invoice_date, 'YY') || '-' || (10000 + u.supplier_id * 10 + u.k), u.supplier_id,
           u.invoice_date, u.invoice_date + 30, u.gross
    FROM unpaid AS u
    UNION ALL
    SELECT 49999, 'NW-26-0688', 310, date '2026-07-31', date '2026-08-30', 25480.00;

    -- Each generated payment pays the invoice behind it in full (same order as the ids above).
    INSERT INTO erp.supplier_payment_allocations (id, payment_id, supplier_invoice_id, amount)
    SELECT (60000 + row_number() OVER (ORDER BY p.id))::bigint, p.id,
           (60000 + row_number() OVER (ORDER BY p.id))::bigint, p.amount
    FROM erp.supplier_payments AS p;

    -- Part payments (supplier 304): 300,00 of 26-0882 (gross 882,00) on 10.07.2026; on 03.08.2026 one payment of
    -- 1.650,00 settles 26-0883 (1.250,00) in full and 400,00 of 26-0884 (2.000,00); on 12.08.2026 one of 2.182,00
    -- settles the rest of both (582,00 and 1.600,00). As of 05.08.2026 open: 582,00 of 26-0882 (due 15.07.2026,
    -- 21 days past due) and 1.600,00 of 26-0884 (due 19.08.2026); nothing of them as of 14.08.2026.
    INSERT INTO erp.supplier_invoices (id, number, supplier_id, invoice_date, due_date, gross)
    VALUES (49996, '26-0882', 304, date '2026-06-15', date '2026-07-15', 882.00),
           (49997, '26-0883', 304, date '2026-07-01', date '2026-07-31', 1250.00),
           (49998, '26-0884', 304, date '2026-07-20', date '2026-08-19', 2000.00);
    INSERT INTO erp.supplier_payments (id, supplier_id, bank_account_id, paid_on, amount, reference)
    VALUES (69001, 304, 904, date '2026-07-10', 300.00, 'Part payment, supplier invoice 26-0882'),
           (69002, 304, 904, date '2026-08-03', 1650.00, 'Payment run 2026-08-03, supplier invoices 26-0883, 26-0884 (part)'),
           (69003, 304, 904, date '2026-08-12', 2182.00, 'Payment run 2026-08-12, supplier invoices 26-0882, 26-0884 (rest)');
    INSERT INTO erp.supplier_payment_allocations (id, payment_id, supplier_invoice_id, amount)
    VALUES (69001, 69001, 49996, 300.00), (69002, 69002, 49997, 1250.00), (69003, 69002, 49998, 400.00),
           (69004, 69003, 49996, 582.00), (69005, 69003, 49998, 1600.00);

    ---------------------------------------------------------------- bank change requests
    INSERT INTO erp.bank_change_requests (id, supplier_id, requested_on, channel, sender, sender_domain,
                                          domain_registered_on, requested_iban_masked, requested_account_ending,
                                          status, verified, verification)
    VALUES
        (501, 305, date '2025-02-10', 'email', 'amministrazione@fratelliconti.it', 'fratelliconti.it',
         date '2003-05-19', erp._mask_iban('IT', '60', 27, '3318'), '3318', 'approved', true,
         'callback to phone on file 2025-02-11: change confirmed by the supplier''s CFO'),
        (502, 310, date '2026-08-12', 'email', 'accounts@northwind-supply-payments.com',
         'northwind-supply-payments.com', date '2026-08-06', erp._mask_iban('LT', '72', 20, '9086'), '9086',
         'pending', false, 'none: e-mail only, not called back');

    ---------------------------------------------------------------- purchase orders
    -- Spread over the two years; 14-90 days lead time; open or partially received
    -- while expected, a few still open long after, about 4% cancelled.
    INSERT INTO erp.purchase_orders (id, number, supplier_id, ordered_on, expected_on, status, net)
    WITH p AS (
        SELECT (3001 + k)::bigint AS id,
               erp._weekday(v_day0 + least(v_days - 1, greatest(0,
                   ((k::bigint * v_days) / v_po)::integer + erp._pick(3001 + k, v_seed + 91, 5) - 2))) AS ordered_on,
               301 + erp._pick(3001 + k, v_seed + 92, v_supp) AS supplier_id,
               erp._rand(3001 + k, v_seed + 93) AS u
        FROM generate_series(0, v_po - 1) AS k),
    q AS (
        SELECT p.*, erp._weekday(p.ordered_on + 14 + erp._pick(p.id, v_seed + 94, 77)) AS expected_on
        FROM p)
    SELECT q.id, 'PO-' || to_char(q.ordered_on, 'YYYY') || '-' || q.id, q.supplier_id, q.ordered_on,
           greatest(q.ordered_on, least(q.expected_on, date '2026-12-31')),
           CASE WHEN q.u < 0.04 THEN 'cancelled'
                WHEN q.expected_on >= v_today THEN CASE WHEN q.u < 0.80 THEN 'open' ELSE 'partially_received' END
                WHEN q.expected_on >= v_today - 30 THEN
                     CASE WHEN q.u < 0.45 THEN 'received' WHEN q.u < 0.80 THEN 'partially_received' ELSE 'open' END
                ELSE CASE WHEN q.u < 0.975 THEN 'received' WHEN q.u < 0.99 THEN 'partially_received' ELSE 'open' END
           END,
           ((50000 + floor(erp._rand(q.id, v_seed + 95) * erp._rand(q.id, v_seed + 95)
                           * erp._rand(q.id, v_seed + 96) * 8000000)::bigint) / 100.0)::numeric(14,2)
    FROM q;

    ---------------------------------------------------------------- items and stock
    INSERT INTO erp.items (id, sku, name, unit, reorder_level)
    SELECT 10000 + n, 'SKU-' || (10000 + n), name, unit, reorder_level
    FROM (VALUES
        (1,  'Hex bolt M8x40 DIN 933, zinc-plated (box of 100)', 'box', 40),
        (2,  'Hex bolt M10x50 DIN 933, zinc-plated (box of 50)', 'box', 30),
        (3,  'Hex nut M8 DIN 934, zinc-plated (box of 200)', 'box', 40),
        (4,  'Hex nut M10 DIN 934, zinc-plated (box of 200)', 'box', 30),
        (5,  'Washer A 8.4 DIN 125 (box of 500)', 'box', 25),
        (6,  'Socket head cap screw M6x20 ISO 4762 (box of 200)', 'box', 25),
        (7,  'Stainless hex bolt M12x60 A2-70 (box of 25)', 'box', 15),
        (8,  'Threaded rod M10x1000 DIN 976', 'pcs', 120),
        (9,  'Wood screw 5x60 Torx (box of 200)', 'box', 50),
        (10, 'Anchor bolt M12x110, galvanised (pack of 20)', 'pack', 20),
        (11, 'Stretch film 500 mm x 300 m, 23 µm', 'roll', 60),
        (12, 'Packing tape PP 50 mm x 66 m, brown', 'roll', 200),
        (13, 'Corrugated box 600x400x400 mm, double wall', 'pcs', 500),
        (14, 'Corrugated box 400x300x200 mm, single wall', 'pcs', 800),
        (15, 'Euro pallet 1200x800 EPAL', 'pcs', 150),
        (16, 'Bubble wrap 1000 mm x 100 m', 'roll', 30),
        (17, 'PET strapping 16 mm x 1000 m', 'roll', 25),
        (18, 'Pallet labels A5, thermal (roll of 1000)', 'roll', 40),
        (19, 'Edge protector 50x50x1200 mm (pack of 50)', 'pack', 20),
        (20, 'Air cushion film 400x200 mm', 'roll', 15),
        (21, 'Safety gloves, nitrile-coated, size 9', 'pair', 300),
        (22, 'Safety gloves, cut level C, size 10', 'pair', 200),
        (23, 'Safety goggles EN 166, clear', 'pcs', 100),
        (24, 'Ear defenders SNR 30 dB', 'pcs', 40),
        (25, 'Hi-vis vest EN ISO 20471, yellow, size L', 'pcs', 60),
        (26, 'Safety shoes S3 ESD, size 43', 'pair', 24),
        (27, 'FFP2 respirator mask (box of 20)', 'box', 50),
        (28, 'First aid kit DIN 13157', 'pcs', 10),
        (29, 'Hard hat EN 397, white', 'pcs', 30),
        (30, 'Disposable coverall type 5/6, size XL', 'pcs', 80),
        (31, 'Cable NYM-J 3x1.5 mm²', 'm', 1000),
        (32, 'Cable NYM-J 5x2.5 mm²', 'm', 500),
        (33, 'Rubber cable H07RN-F 3G2.5', 'm', 300),
        (34, 'Cable ties 4.8x300 mm, black (pack of 100)', 'pack', 100),
        (35, 'Miniature circuit breaker B16, 1-pole', 'pcs', 60),
        (36, 'Residual current device 40 A 30 mA, 4-pole', 'pcs', 15),
        (37, 'LED panel 620x620 mm, 36 W, 4000 K', 'pcs', 40),
        (38, 'CEE socket 16 A, 5-pin, IP44', 'pcs', 25),
        (39, 'Terminal block 2.5 mm², grey (pack of 50)', 'pack', 30),
        (40, 'Heat-shrink tubing assortment', 'set', 10),
        (41, 'Hydraulic oil HLP 46', 'l', 400),
        (42, 'Hydraulic hose 2SN DN10', 'm', 150),
        (43, 'Pneumatic tube PU 8x6 mm, blue', 'm', 500),
        (44, 'Push-in fitting 8 mm, straight (pack of 10)', 'pack', 40),
        (45, 'Ball valve 1/2", brass, PN 40', 'pcs', 50),
        (46, 'Pressure gauge 0-16 bar, 63 mm', 'pcs', 20),
        (47, 'O-ring assortment NBR 70 (419 pieces)', 'set', 8),
        (48, 'Hydraulic coupling ISO-A 1/2"', 'pcs', 30),
        (49, 'Deep groove ball bearing 6204-2RS', 'pcs', 150),
        (50, 'Deep groove ball bearing 6305-2Z', 'pcs', 80),
        (51, 'Pillow block bearing UCP 205', 'pcs', 25),
        (52, 'V-belt SPA 1250', 'pcs', 30),
        (53, 'Roller chain 08B-1, 5 m', 'pcs', 12),
        (54, 'Taper roller bearing 30206', 'pcs', 40),
        (55, 'Cutting disc 125x1.0 mm, inox (pack of 25)', 'pack', 60),
        (56, 'Flap disc 125 mm, grit 80 (pack of 10)', 'pack', 40),
        (57, 'HSS drill bit set 1-10 mm, 19 pieces', 'set', 15),
        (58, 'Cordless tool battery 18 V 5.0 Ah', 'pcs', 12),
        (59, 'Welding wire SG2 1.0 mm, 15 kg spool', 'pcs', 20),
        (60, 'Welding electrodes E6013 2.5 mm (pack of 5 kg)', 'pack', 25),
        (61, 'Spray paint RAL 7035, 400 ml', 'pcs', 60),
        (62, 'Cleaning cloth roll, blue, 2-ply', 'roll', 80),
        (63, 'Degreaser spray 500 ml', 'pcs', 100),
        (64, 'Thread locker, medium strength, 50 ml', 'pcs', 40),
        (65, 'Lubricating grease EP2', 'kg', 100),
        (66, 'Steel sheet DC01 2 mm', 'kg', 2000),
        (67, 'Stainless steel sheet 1.4301 1.5 mm', 'kg', 800),
        (68, 'Flat bar S235 40x5 mm', 'm', 300),
        (69, 'Aluminium profile 40x40 mm, slot 8', 'm', 200),
        (70, 'Round tube S235 42.4x2.6 mm', 'm', 250),
        (71, 'LDPE granulate, natural', 'kg', 1500),
        (72, 'Copper wire 2.5 mm², bare', 'kg', 100),
        (73, 'Square tube S235 40x40x3 mm', 'm', 200),
        (74, 'Industrial absorbent granules', 'kg', 200),
        (75, 'Pallet rack beam 2700 mm', 'pcs', 20),
        (76, 'Floor marking tape 50 mm, yellow', 'roll', 30),
        (77, 'Storage bin size 4, blue', 'pcs', 100),
        (78, 'Heavy-duty castor 125 mm, braked', 'pcs', 40),
        (79, 'Hand pallet truck 2500 kg', 'pcs', 2),
        (80, 'Aluminium step ladder, 6 steps', 'pcs', 3)
    ) AS x (n, name, unit, reorder_level);

    -- Every item in Hamburg, most also in Rotterdam and Wrocław; about one row in
    -- seven below its reorder level; counted in the six weeks before today.
    INSERT INTO erp.stock (id, item_id, warehouse, quantity, counted_on)
    WITH s AS (
        SELECT i.id AS item_id, w.n AS wn, w.warehouse, i.unit, i.reorder_level, i.id * 4 + w.n AS key
        FROM erp.items AS i
        CROSS JOIN (VALUES (1, 'Hamburg'), (2, 'Rotterdam'), (3, 'Wrocław')) AS w (n, warehouse)
        WHERE w.n = 1 OR erp._rand(i.id * 4 + w.n, v_seed + 101) < 0.85),
    q AS (
        SELECT s.*,
               s.reorder_level * CASE WHEN erp._rand(s.key, v_seed + 102) < 0.14
                                      THEN erp._pick(s.key, v_seed + 103, 95)
                                      ELSE 110 + erp._pick(s.key, v_seed + 103, 300) END / 100 AS raw
        FROM s)
    SELECT (row_number() OVER (ORDER BY q.item_id, q.wn))::bigint, q.item_id, q.warehouse,
           CASE WHEN q.unit IN ('kg', 'm', 'l')
                THEN round(q.raw + erp._pick(q.key, v_seed + 104, 1000) / 1000.0, 3)
                ELSE floor(q.raw) END,
           v_today - erp._pick(q.key, v_seed + 105, 44)
    FROM q;

    ---------------------------------------------------------------- done
    DROP TABLE erp_sample_slot;
    DROP TABLE erp_sample_customer;

    -- Indexes first, then the foreign keys (each validated in one pass).
    FOR i IN 1 .. coalesce(array_length(v_redo, 1), 0) LOOP
        EXECUTE v_redo[i];
    END LOOP;

    ANALYZE erp.employees, erp.customers, erp.invoices, erp.invoice_instalments, erp.payments, erp.credit_notes,
            erp.tickets,
            erp.suppliers, erp.supplier_bank_accounts, erp.supplier_payments, erp.supplier_invoices,
            erp.supplier_payment_allocations, erp.bank_change_requests,
            erp.purchase_orders, erp.items, erp.stock;

    SELECT jsonb_build_object(
        'employees',              (SELECT count(*) FROM erp.employees),
        'customers',              (SELECT count(*) FROM erp.customers),
        'invoices',               (SELECT count(*) FROM erp.invoices),
        'invoice_instalments',    (SELECT count(*) FROM erp.invoice_instalments),
        'payments',               (SELECT count(*) FROM erp.payments),
        'credit_notes',           (SELECT count(*) FROM erp.credit_notes),
        'tickets',                (SELECT count(*) FROM erp.tickets),
        'suppliers',              (SELECT count(*) FROM erp.suppliers),
        'supplier_bank_accounts', (SELECT count(*) FROM erp.supplier_bank_accounts),
        'supplier_payments',      (SELECT count(*) FROM erp.supplier_payments),
        'supplier_invoices',      (SELECT count(*) FROM erp.supplier_invoices),
        'supplier_payment_allocations', (SELECT count(*) FROM erp.supplier_payment_allocations),
        'bank_change_requests',   (SELECT count(*) FROM erp.bank_change_requests),
        'purchase_orders',        (SELECT count(*) FROM erp.purchase_orders),
        'items',                  (SELECT count(*) FROM erp.items),
        'stock',                  (SELECT count(*) FROM erp.stock))
    INTO v_result;
    RETURN v_result;
END
$fn$;

COMMENT ON FUNCTION erp.generate_sample(integer, integer) IS
    'fill the empty sample ERP deterministically: erp.generate_sample(invoices, seed); returns row counts per table';
