# Part 3: extra hypotheses on existing premises (mostly "unsupported" and harder contradictions),
# plus four additional premises.
from pairs_part1 import P, add

def extend(key, items):
    hits = [i for i, (_, prem, _) in enumerate(P) if key in prem]
    assert len(hits) == 1, (key, hits)
    P[hits[0]][2].extend(items)

extend("INVOICE INV-5520", [("number", "Carrow Foods plc ordered 50 boxes of nitrile gloves on PO-88172.", "U")])
extend("INV-20931", [
    ("date", "INV-20931 is due for payment on 2023-12-02.", "U"),
    ("arithmetic", "Cargo insurance on INV-20931 totals EUR 262.00.", "C")])
extend("7731-A", [("date", "Invoice 7731-A is payable within 30 days.", "U")])
extend("SRV-0456", [("money", "The travel expenses on SRV-0456 include EUR 210 for flights.", "U")])
extend("40017833", [
    ("comparison", "The customer paid more for telematics this quarter than in the previous quarter.", "U"),
    ("identifier", "Invoice 40017833 is billed to account 1192-884-05.", "S")])
extend("A-1187", [("temporal_order", "The timber on invoice A-1187 was delivered before the invoice date.", "U")])
extend("PO-4471", [("identifier", "The PO-4471 prices come from Orbis quote Q-7781.", "U")])
extend("PO-7305", [
    ("date", "PO-7305 requires delivery by 2024-06-03.", "U"),
    ("arithmetic", "Line 3 of PO-7305 is worth AUD 723.00.", "C")])
extend("BPO-2024-019", [("entity", "Fenwick Fuels Ltd won BPO-2024-019 through a competitive tender.", "U")])
extend("55-20871", [("temporal_order", "Delacroix Fasteners SARL confirmed PO 55-20871 before 5 July 2024.", "U")])
extend("PO-1093", [("duration", "Installation of the heat exchanger under PO-1093 will take two weeks.", "U")])
extend("NORTHFIELD BANK", [("entity", "Flourmill Partners is Meridian Bakeries' main flour supplier.", "U")])
extend("Rheinfeld Solar", [("identifier", "The payment to Voltaik Module AG settled invoice RE 2024-118 in full.", "U")])
extend("credit card statement", [("arithmetic", "Interest of $41.20 was charged in this statement period.", "U")])
extend("Wire transfer confirmation", [("duration", "The funds reached the beneficiary within one business day of the value date.", "U")])
extend("account ending 0457", [("money", "The Costco purchase included $48.10 of sales tax.", "U")])
extend("ASN-66120", [("units", "Each pallet on ASN-66120 weighs less than 450 kg gross.", "U")])
extend("SO-40982", [("duration", "DSV road freight from Växjö takes three days.", "U")])
extend("DN-22871", [("date", "The 16 back-ordered bags of CL-415 will ship on 2024-07-16.", "U")])
extend("1Z 9X4", [("money", "UPS charged USD 86.40 to carry the shipment.", "U")])
extend("MSCU-BL-7720914", [
    ("date", "The vessel carrying the MSCU-BL-7720914 cargo reached Rotterdam on 2024-05-21.", "U"),
    ("entity", "Cooperativa Cafeeira Vale Verde is the shipper of the coffee.", "S")])
extend("CPP-4418205", [("comparison", "The equipment breakdown limit on CPP-4418205 is higher than the business income limit.", "U")])
extend("AUT-55-908134", [("negation", "AUT-55-908134 does not include roadside assistance.", "U")])
extend("Harbourside Events", [("negation", "Employers' liability is excluded from policy PL/2291/0447.", "S")])
extend("HO3-7720-1943", [("money", "The annual premium for HO3-7720-1943 is $1,860.", "U")])
extend("MC-2024-03371", [("date", "MV Atlantic Crest arrived in Newark on 30 Oct 2024.", "U")])
extend("TRV-880412", [("entity", "Jonas Eklund is travelling to Tokyo with his family.", "U")])
extend("STATEMENT OF WORK No. 3", [
    ("money", "Lumenstack Data Services LLC has invoiced USD 45,000 for milestone M1.", "U"),
    ("arithmetic", "Milestones M1 and M2 together are worth USD 135,000.", "C")])
extend("Nadia Okonkwo", [("temporal_order", "Materials development must be completed before the first session.", "U")])
extend("SOW-PX-118", [("negation", "SOW-PX-118 does not cover travel expenses.", "U")])
extend("SOW-2291", [("identifier", "SOW-2291 is issued under master agreement MSA-1180.", "U")])
extend("Change Order CO-4", [("duration", "CO-4 extends the completion date of SOW 17 by six weeks.", "C")])
extend("Office relocation support", [("number", "The office move will use a crew of 12 MoveRight staff.", "U")])
extend("Travel & Expense Policy", [("duration", "Expense claims must be submitted within 30 days of travel.", "U")])
extend("Annual leave:", [("number", "Employees accrue an extra day of annual leave for every five years of service.", "U")])
extend("Field Staff Travel Policy FS-7", [("units", "The FS-7 mileage rate for motorcycles is £0.24 per mile.", "U")])
extend("procurement-approvals", [("date", "Version 3.2 of the procurement approvals policy took effect in 2023.", "U")])
extend("Remote Working Policy", [("number", "With HR approval, employees may work remotely from abroad for up to 20 days a year.", "U")])
extend("Brennan Property Holdings", [("money", "The service charge for Unit 4 is EUR 4,500 a year.", "U")])
extend("Altamura Olive Oil", [("modality_tense", "The first lot of olive oil was delivered in March 2024.", "U")])
extend("EL-6620", [
    ("money", "The press leased under EL-6620 is valued at USD 140,000.", "U"),
    ("duration", "The higher payment of USD 4,250 applies for the first 18 months of EL-6620.", "C")])
extend("Ostara Biotech", [("duration", "The NDA has an initial term of two years.", "U")])
extend("MSA-8821", [
    ("entity", "Fjordnet Telecom AS subcontracts network maintenance under MSA-8821.", "U"),
    ("entity", "Fjordnet Telecom AS is the supplier under MSA-8821.", "S")])
extend("17B Marlow Court", [("money", "The security deposit for 17B Marlow Court is $2,350.", "U")])
extend("PO-6617", [("money", "Freight is included in the EUR 910 per tonne price for PO-6617.", "U")])
extend("Q-3391", [("duration", "Quote Q-3391 is valid for 30 days from the date it was issued.", "U")])
extend("CHG-30418", [("entity", "Hannah Stroud chairs the CAB that approved CHG-30418.", "U")])
extend("Tidewater Brewing", [("money", "Tidewater Brewing paid a dividend of $0.38 per share last year.", "U")])
extend("Lake Baikal", [("number", "Lake Baikal has an average depth of 744 metres.", "U")])
extend("Water boils", [("comparison", "At 5,000 metres water boils below 85 °C.", "U")])
extend("Freland", [("comparison", "Freland's total population exceeded 5 million in 2021.", "U")])
extend("Øresund Bridge", [("duration", "Construction of the Øresund crossing took five years.", "U")])
extend("Lumora Therapeutics", [("percent", "Lumora's cash balance fell 15 percent during 2023.", "U")])

add("policy", """
Expense Policy 7.3 - Client entertainment. Entertainment of clients is reimbursable up to GBP 60 per attendee, including the employee's own share, and must be pre-approved by a director when the total bill will exceed GBP 400. Alcohol may not exceed one third of the bill. Itemised receipts and the names of all attendees must accompany the claim.
""", [
    ("arithmetic", "A client dinner for five attendees can be reimbursed up to GBP 300.", "S"),
    ("comparison", "A GBP 450 client dinner needs a director's pre-approval.", "S"),
    ("arithmetic", "On a GBP 240 bill, up to GBP 90 may be spent on alcohol.", "C"),
    ("unrelated", "Entertainment of government officials is prohibited.", "U"),
    ("negation", "Attendee names are optional on entertainment claims.", "C"),
    ("date", "Expense Policy 7.3 was last revised in 2022.", "U"),
])

add("bank_statement", """
Loan statement - Business term loan 55-0912-LN, Okoro Fabrication Ltd. Original principal: NGN 48,000,000 drawn 1 February 2023. Term: 36 months, fixed rate 21% p.a. Monthly instalment: NGN 1,808,400. Principal outstanding at 31 January 2024: NGN 34,112,750. Next instalment due 1 March 2024.
""", [
    ("arithmetic", "Principal of NGN 13,887,250 had been repaid by 31 January 2024.", "S"),
    ("percent", "Loan 55-0912-LN carries a fixed interest rate of 12% a year.", "C"),
    ("unrelated", "Loan 55-0912-LN is secured on Okoro Fabrication's workshop.", "U"),
    ("arithmetic", "Okoro Fabrication has paid NGN 21,700,800 in instalments on the loan so far.", "U"),
    ("money", "Each monthly instalment on loan 55-0912-LN is NGN 1,808,400.", "S"),
])

add("shipping_notice", """
Notice of delay: Container MSKU 4410276 carrying your order PO 7720-KB (1,850 cartons of canned tomatoes) has been rolled from the MAERSK KINLOSS to the next sailing, the MAERSK KOWLOON, due to port congestion in Salerno. The new estimated departure is 14 August 2024, nine days later than originally planned, and the revised ETA at Felixstowe is 27 August 2024.
""", [
    ("date", "Container MSKU 4410276 was originally planned to depart on 5 August 2024.", "S"),
    ("modality_tense", "Container MSKU 4410276 has left Salerno on the MAERSK KINLOSS.", "C"),
    ("duration", "The revised schedule allows 13 days from departure to arrival at Felixstowe.", "S"),
    ("unrelated", "The shipper will pay the demurrage charges caused by the delay.", "U"),
    ("number", "Container MSKU 4410276 holds 1,580 cartons of canned tomatoes.", "C"),
    ("date", "The original ETA at Felixstowe was 18 August 2024.", "U"),
])

add("general_prose", """
The Keldur Geothermal Plant in northern Iceland began operating in 2011 with two 45-megawatt turbines. A third turbine of the same size was added in 2019, and the plant now supplies electricity to an aluminium smelter and hot water to the nearby town of Húsavík. The operator, Norðurorka Energy, is jointly owned by three municipalities.
""", [
    ("arithmetic", "The Keldur plant now has 135 megawatts of turbine capacity.", "S"),
    ("temporal_order", "The third Keldur turbine was added eight years after the plant began operating.", "S"),
    ("entity", "Norðurorka Energy is owned by two municipalities.", "C"),
    ("unrelated", "The Keldur plant generates about 1,000 GWh of electricity a year.", "U"),
    ("number", "Húsavík has about 2,300 inhabitants.", "U"),
    ("comparison", "The Keldur plant began operating with more than 100 MW of turbine capacity.", "C"),
])
